// Round trips Arrow IPC files and streams through nodejs-polars (polars' Rust IPC
// reader and writer: arrow-rs's flatbuffers builder lays out tables unlike Arrow C++'s
// and this library's). tools/check-polars.sh drives it, once per integration case.
//
//   node polars_roundtrip.cjs OUTDIR [--read=LABEL=IN]... [--compare=A,B]... LABEL=IN...
//
// For each LABEL=IN, polars reads IN (an IPC file or stream, passed as a Buffer:
// readIPC(path) fails on valid files in nodejs-polars 0.25.2) and writes the frame
// back six ways:
//
//   OUTDIR/LABEL.arrow_file  OUTDIR/LABEL.lz4.arrow_file  OUTDIR/LABEL.zstd.arrow_file
//   OUTDIR/LABEL.stream      OUTDIR/LABEL.lz4.stream      OUTDIR/LABEL.zstd.stream
//
// printing "LABEL ok: ROWS rows" or "LABEL refused: REASON" (polars threw or panicked).
// --read=LABEL=IN only reads IN ("LABEL read" or "LABEL refused: REASON").
// --compare=A,B prints "compare A B same", "compare A B differs: WHERE" or
// "compare A B n/a: WHY" for the frames polars read from A and B (column names,
// types and values, nulls equal).
//
// Exit code 0 unless the arguments are wrong (2) or this script fails (1).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const pl = require('nodejs-polars');

function firstLine(e) {
  return String((e && e.message) || e).split('\n')[0].slice(0, 200);
}

function readFrame(file) {
  const bytes = fs.readFileSync(file);
  const isFile = bytes.length >= 6 && bytes.subarray(0, 6).toString('latin1') === 'ARROW1';
  return isFile ? pl.readIPC(bytes) : pl.readIPCStream(bytes);
}

const WRITES = [
  ['arrow_file', 'uncompressed', false], ['lz4.arrow_file', 'lz4', false],
  ['zstd.arrow_file', 'zstd', false], ['stream', 'uncompressed', true],
  ['lz4.stream', 'lz4', true], ['zstd.stream', 'zstd', true],
];

function dtypeNames(df) {
  // DataType.deserialize of nodejs-polars 0.25.2 throws on some types (Binary):
  // the columns' own dtype strings do not.
  return df.columns.map((name) => {
    try { return `${name}: ${String(df.getColumn(name).dtype)}`; } catch (e) { return `${name}: ?`; }
  });
}

function compare(a, b) {
  if (a.height !== b.height) return `differs: ${a.height} rows against ${b.height}`;
  const na = dtypeNames(a);
  const nb = dtypeNames(b);
  if (na.join('\n') !== nb.join('\n')) {
    return `differs: columns [${na.join(', ')}] against [${nb.join(', ')}]`;
  }
  for (const name of a.columns) {
    const ca = a.getColumn(name);
    const cb = b.getColumn(name);
    if (!ca.seriesEqual(cb, true, false)) {
      return `differs: column ${name}`;
    }
  }
  return 'same';
}

function main(argv) {
  if (argv.length < 1) {
    process.stderr.write('usage: node polars_roundtrip.cjs OUTDIR [--read=L=IN]... [--compare=A,B]... L=IN...\n');
    return 2;
  }
  const outdir = argv[0];
  const frames = new Map();
  const refusals = new Map();
  const compares = [];
  for (const arg of argv.slice(1)) {
    let m;
    if ((m = /^--compare=([^,]+),(.+)$/.exec(arg))) {
      compares.push([m[1], m[2]]);
      continue;
    }
    const readOnly = arg.startsWith('--read=');
    const spec = readOnly ? arg.slice(7) : arg;
    const eq = spec.indexOf('=');
    if (eq <= 0) {
      process.stderr.write(`bad argument ${arg}\n`);
      return 2;
    }
    const label = spec.slice(0, eq);
    const input = spec.slice(eq + 1);
    let df;
    try {
      df = readFrame(input);
    } catch (e) {
      refusals.set(label, firstLine(e));
      console.log(`${label} refused: polars cannot read it: ${firstLine(e)}`);
      continue;
    }
    frames.set(label, df);
    if (readOnly) {
      console.log(`${label} read`);
      continue;
    }
    try {
      for (const [ext, compression, stream] of WRITES) {
        const bytes = stream ? df.writeIPCStream({ compression }) : df.writeIPC({ compression });
        fs.writeFileSync(path.join(outdir, `${label}.${ext}`), bytes);
      }
      console.log(`${label} ok: ${df.height} rows`);
    } catch (e) {
      console.log(`${label} refused: polars cannot write it: ${firstLine(e)}`);
    }
  }
  for (const [a, b] of compares) {
    let result;
    if (!frames.has(a)) {
      result = `n/a: polars did not read ${a} (${refusals.get(a) || 'not given'})`;
    } else if (!frames.has(b)) {
      result = `n/a: polars did not read ${b} (${refusals.get(b) || 'not given'})`;
    } else {
      try {
        result = compare(frames.get(a), frames.get(b));
      } catch (e) {
        result = `n/a: polars cannot compare them: ${firstLine(e)}`;
      }
    }
    console.log(`compare ${a} ${b} ${result}`);
  }
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`polars_roundtrip.cjs: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 1;
}
// nodejs-polars keeps a thread pool alive: leave once the output is out.
process.stdout.write('', () => process.exit(process.exitCode));
