// Reads every IPC stream (.arrows) that test_writer_cases wrote with two other Arrow
// implementations compiled to WebAssembly, then has this library read back what they
// write (tools/check-wasm.sh runs it):
//
//   arrow-rs  (parquet-wasm): Table.fromIPCStream() is arrow-rs' IPC stream reader,
//             table.intoIPCStream() its IPC stream writer.
//   Arrow C++ (duckdb-wasm):  insertArrowFromIPCStream() reads the stream with Arrow
//             C++ into a DuckDB table; `SELECT *` returns DuckDB's result as an IPC
//             stream written by Arrow C++.
//
//   node wasm_check.mjs IN_DIR OUT_DIR CLI [INTEGRATION_DIR]
//
// With INTEGRATION_DIR, the arrow-testing integration cases too (integrationCase(),
// step "integration", and "integration-lz4" for arrow-rs). Then DuckDB's own data as
// duckdb-wasm writes it under each of its Arrow output settings, read by this library
// (duckdb_produced.mjs; IMPL "duckdb-produced").
// Per case and implementation, one line "RESULT IMPL CASE STEP[: detail]", RESULT
// being PASS, FAIL, SKIP (the implementation does not support a type or codec of the
// case) or KNOWN (a bug of that implementation listed in KNOWN below, with the reason):
//   read:   what the implementation read, as apache-arrow JS reads its output, holds
//           the values (and schema/field metadata) apache-arrow JS reads from our
//           stream; for DuckDB after its documented type mapping (DUCKDB_TYPES).
//           check.mjs checks apache-arrow's reading of our stream against the values
//           the C test built, so this compares with what we wrote.
//   ours:   this library reads the implementation's output: `nanoarrow validate`
//           passes, and `nanoarrow convert` (our reader, then our writer) gives a
//           stream in which apache-arrow finds the same types and values as in the
//           implementation's output; for arrow-rs, whose types are ours, `nanoarrow
//           cat --format jsonl` must also print the same rows for its output as for
//           our stream.
// The last line is "N passed, N failed, N skipped, N known".
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { tableFromIPC, compressionRegistry, CompressionType } from 'apache-arrow';
import lz4 from 'lz4js';
import * as fzstd from 'fzstd';
import * as parquetWasm from 'parquet-wasm';
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import { duckdbProduced } from './duckdb_produced.mjs';

compressionRegistry.set(CompressionType.LZ4_FRAME, {
  decode: (data) => new Uint8Array(lz4.decompress(data)),
});
compressionRegistry.set(CompressionType.ZSTD, {
  decode: (data) => new Uint8Array(fzstd.decompress(data)),
});

// Bugs of the other implementations that these cases show, by "IMPL CASE COLUMN"
// (writer cases) or "IMPL DIR/CASE integration". Each was judged against the Arrow
// format (format/Schema.fbs, Columnar.rst): the column differs only as described,
// our stream follows the spec there, and apache-arrow JS, arrow-rs and this library
// all read the values the C test (or the case's JSON) has. An integration case that
// an implementation refuses, for no reason in SKIPS, in arrow-testing's stream as in
// ours is KNOWN too, with its message (duckdb-wasm traps with "memory access out of
// bounds" on generated_nested_dictionary, both streams).
const KNOWN = {
  'duckdb cpp-21.0.0/generated_list_view integration':
    "duckdb-wasm drops the validity of a list view's child values: null elements come back as " +
    'the values stored under them (from our stream the DATA values of the JSON, from ' +
    "Arrow C++'s 0); the case's JSON and both streams have these elements null",
  'duckdb temporal day_time':
    'DuckDB reads Interval<DAY_TIME> as one int64 of milliseconds; the format stores ' +
    'two contiguous int32, days then milliseconds (Schema.fbs IntervalUnit.DAY_TIME), ' +
    'so {days: 1, milliseconds: 2} comes back as 8589934593 ms (2 << 32 | 1); DuckDB ' +
    'reads the same column written by apache-arrow JS or arrow-rs the same wrong way',
};

// Columns whose values an implementation reads differently from one run to the next,
// from arrow-testing's stream as from ours (memory it never wrote): left out of the
// integration comparison, named in a note. Not KNOWN: a KNOWN bug must show every
// time, and these show only on some runs.
const UNSTABLE = {
  'duckdb cpp-21.0.0/generated_run_end_encoded': {
    ree16_bool:
      'duckdb-wasm reads a run-end encoded boolean column as values that change between ' +
      "runs on the same bytes (arrow-testing's stream too: 5 different results in 30 runs); " +
      'the other run-end encoded columns come back as written',
  },
};

// Reasons an implementation refuses a stream that make the case a skip: a codec or
// type it was built without or does not have.
const SKIPS = [
  [/requires the (\w+) feature/, (m) => `parquet-wasm is built without arrow-rs' ${m[1]} codec`],
  [/Support for codec '(\w+)' not built/, (m) => `duckdb-wasm's Arrow C++ is built without ${m[1]}`],
  // 'Unsupported Internal Arrow Type for Decimal d:40,3,256', '... Type: "d" Union'
  [/Unsupported Internal Arrow Type(?: for|:)? *(.*)/,
    (m) => `DuckDB does not support the Arrow type ${m[1].replace(/"/g, '').trim()}`],
  [/Library only supports 128-bit or 256-bit decimal values/,
    () => "duckdb-wasm's Arrow C++ has no 32- or 64-bit decimals"],
  [/Could not convert Interval to Microsecond/,
    () => 'DuckDB intervals hold microseconds: it refuses nanosecond durations and intervals it cannot convert'],
  [/A table cannot be created from an unnamed struct/,
    () => 'DuckDB refuses top-level fields of one name'],
];

function plain(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'object' && typeof value.toJSON === 'function') return value.toJSON();
  if (ArrayBuffer.isView(value)) return Array.from(value, (x) => (typeof x === 'bigint' ? `${x}` : x));
  return value;
}

// Metadata is a map: arrow-rs keeps it in a hash map and writes it in another order.
const sortedMap = (map) => Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

// Columns as apache-arrow reads them: [{name, type, values, metadata}], and the
// schema metadata.
function readTable(bytes) {
  const table = tableFromIPC(bytes);
  const columns = table.schema.fields.map((field) => {
    const column = table.getChild(field.name);
    const values = Array.from({ length: column.length }, (_, i) => plain(column.get(i)));
    return {
      name: field.name,
      type: `${field.type}`,
      values: JSON.parse(JSON.stringify(values, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))),
      metadata: sortedMap(field.metadata),
    };
  });
  return { columns, metadata: sortedMap(table.schema.metadata) };
}

// DuckDB's documented Arrow type mapping: what a column of each type comes back as
// (DuckDB has one string, one blob and one list type, microsecond times and
// timestamps with a time zone, and one interval type of months, days and
// microseconds), and the value apache-arrow then shows for each value we wrote.
const NS_PER_MS = 1000000n;
const mdn = (months, days, nanos) => {
  const n = BigInt.asUintN(64, nanos);
  return [months, days, Number(BigInt.asIntN(32, n & 0xffffffffn)), Number(BigInt.asIntN(32, n >> 32n))];
};
const toMicros = (nanos) => (nanos / 1000n) * 1000n;
const DUCKDB_TYPES = [
  [/^Null$/, () => 'Int32', (v) => v],
  [/^Date64<MILLISECOND>$/, () => 'Date32<DAY>', (v) => v],
  [/^Time32<MILLISECOND>$/, () => 'Time64<MICROSECOND>', (v) => `${BigInt(v) * 1000n}n`],
  [/^Time32<SECOND>$/, () => 'Time64<MICROSECOND>', (v) => `${BigInt(v) * 1000000n}n`],
  // DuckDB has TIMESTAMP_NS but TIMESTAMP WITH TIME ZONE only in microseconds.
  [/^Timestamp<NANOSECOND, (.+)>$/, (m) => `Timestamp<MICROSECOND, ${m[1]}>`,
    (v) => Math.trunc(v * 1000) / 1000],
  [/^Duration<(\w+)>$/, () => 'Interval<MONTH_DAY_NANO>', (v, m) => {
    const scale = { SECOND: 1000000000n, MILLISECOND: 1000000n, MICROSECOND: 1000n, NANOSECOND: 1n };
    return mdn(0, 0, toMicros(BigInt(v.slice(0, -1)) * scale[m[1]]));
  }],
  [/^Interval<YEAR_MONTH>$/, () => 'Interval<MONTH_DAY_NANO>', (v) => mdn(v[0] * 12 + v[1], 0, 0n)],
  [/^Interval<DAY_TIME>$/, () => 'Interval<MONTH_DAY_NANO>',
    (v) => mdn(0, v[0], BigInt(v[1]) * NS_PER_MS)],
  [/^Interval<MONTH_DAY_NANO>$/, () => 'Interval<MONTH_DAY_NANO>', (v) => {
    const nanos = (BigInt(v[3]) << 32n) | BigInt(v[2] >>> 0);
    return mdn(v[0], v[1], toMicros(nanos));
  }],
];
function duckdbType(type) {
  return type
    .replace(/\bLargeUtf8\b|\bUtf8View\b/g, 'Utf8')
    .replace(/\bLargeBinary\b|\bBinaryView\b|\bFixedSizeBinary\[\d+\]/g, 'Binary')
    .replace(/\bLargeList</g, 'List<')
    .replace(/^Dictionary<\w+, (.*)>$/, '$1');
}
function asDuckdb(column) {
  for (const [pattern, type, value] of DUCKDB_TYPES) {
    const m = column.type.match(pattern);
    if (m) {
      return { ...column, type: type(m), values: column.values.map((v) => (v === null ? null : value(v, m))) };
    }
  }
  return { ...column, type: duckdbType(column.type) };
}

// Differences between two readings, as "COLUMN: what" (empty when the same).
// Without metadata, field and schema metadata are not compared (DuckDB drops them).
function differences(got, want, withMetadata) {
  const found = [];
  const names = (t) => t.columns.map((c) => c.name).join(',');
  if (names(got) !== names(want)) return [`columns ${names(got)}, want ${names(want)}`];
  want.columns.forEach((w, i) => {
    const g = got.columns[i];
    if (g.type !== w.type) found.push(`${w.name}: type ${g.type}, want ${w.type}`);
    else if (JSON.stringify(g.values) !== JSON.stringify(w.values)) {
      found.push(`${w.name}: values ${JSON.stringify(g.values)}, want ${JSON.stringify(w.values)}`);
    } else if (withMetadata && JSON.stringify(g.metadata) !== JSON.stringify(w.metadata)) {
      found.push(`${w.name}: field metadata ${JSON.stringify(g.metadata)}, want ${JSON.stringify(w.metadata)}`);
    }
  });
  if (withMetadata && JSON.stringify(got.metadata) !== JSON.stringify(want.metadata)) {
    found.push(`schema metadata ${JSON.stringify(got.metadata)}, want ${JSON.stringify(want.metadata)}`);
  }
  return found;
}

const [inDir, outDir, cli, integrationDir] = process.argv.slice(2);
const counts = { PASS: 0, FAIL: 0, SKIP: 0, KNOWN: 0 };
const skipped = {}; // reason -> [IMPL CASE]
const known = {};   // reason -> [IMPL CASE]
const unseenKnown = new Set(Object.keys(KNOWN));
const notes = new Set(); // what the checks show of the other implementations alone
const byImpl = {}; // IMPL -> STEP -> RESULT -> count
function report(result, impl, name, step, detail) {
  counts[result]++;
  ((byImpl[impl] ??= {})[step] ??= {})[result] = (byImpl[impl][step][result] ?? 0) + 1;
  console.log(`${result} ${impl} ${name} ${step}${detail ? `: ${detail}` : ''}`);
  if (result === 'SKIP') (skipped[detail] ??= []).push(`${impl} ${name}`);
  if (result === 'KNOWN') (known[detail] ??= []).push(`${impl} ${name}`);
}
function run(...args) {
  try {
    return { ok: true, out: execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }) };
  } catch (e) {
    return { ok: false, out: `${e.stderr || e.message}`.trim().split('\n')[0] };
  }
}

// Judges what IMPL read (OUT_BYTES, its output) against our stream, then has this
// library read OUT_BYTES.
function check(impl, name, ours, outBytes, expect, withMetadata) {
  const file = `${outDir}/${impl}/${name}.arrows`;
  writeFileSync(file, outBytes);
  let theirs;
  try {
    theirs = readTable(outBytes);
  } catch (e) {
    report('FAIL', impl, name, 'read', `apache-arrow cannot read ${impl}'s output ${file}: ${e.message}`);
    return;
  }
  const diffs = [];
  for (const d of differences(theirs, expect, withMetadata)) {
    const key = `${impl} ${name} ${d.split(':')[0]}`;
    if (KNOWN[key]) {
      unseenKnown.delete(key);
      report('KNOWN', impl, name, 'read', `${d.split(':')[0]}: ${KNOWN[key]}`);
    } else {
      diffs.push(d);
    }
  }
  if (diffs.length) report('FAIL', impl, name, 'read', `${diffs.join('; ')} (${impl}'s output: ${file})`);
  else report('PASS', impl, name, 'read');

  const validate = run('validate', file);
  if (!validate.ok) {
    report('FAIL', impl, name, 'ours', `nanoarrow validate ${file}: ${validate.out}`);
    return;
  }
  const rewrite = `${file}.ours.arrows`;
  const convert = run('convert', file, rewrite);
  if (!convert.ok) {
    report('FAIL', impl, name, 'ours', `nanoarrow convert ${file}: ${convert.out}`);
    return;
  }
  let again;
  try {
    again = readTable(readFileSync(rewrite));
  } catch (e) {
    report('FAIL', impl, name, 'ours', `apache-arrow cannot read our rewrite ${rewrite}: ${e.message}`);
    return;
  }
  const lost = differences(again, theirs, withMetadata);
  if (lost.length) {
    report('FAIL', impl, name, 'ours', `our reading of ${file} differs: ${lost.join('; ')}`);
    return;
  }
  if (impl === 'arrow-rs') {
    const a = run('cat', file, '--format', 'jsonl');
    const b = run('cat', ours, '--format', 'jsonl');
    if (!a.ok || !b.ok || a.out !== b.out) {
      report('FAIL', impl, name, 'ours', `nanoarrow cat prints other rows for ${file} than for ${ours}`);
      return;
    }
  }
  report('PASS', impl, name, 'ours');
}

// The message of an implementation's exception.
function messageOf(error) {
  let message = `${error.message || error}`.split('\n')[0];
  try {
    // DuckDB's errors are JSON: {"exception_type": ..., "exception_message": ...}.
    message = JSON.parse(message).exception_message ?? message;
  } catch {
    // Not JSON: taken as it is.
  }
  return message;
}

// Reports a refusal; true when it is a skip.
function refused(impl, name, error, step = 'read') {
  const message = messageOf(error);
  for (const [pattern, reason] of SKIPS) {
    const m = message.match(pattern);
    if (m) {
      report('SKIP', impl, name, step, reason(m));
      return true;
    }
  }
  report('FAIL', impl, name, step, `${impl} refuses our stream: ${message}`);
  return false;
}

// DuckDB reads STREAM (our bytes) into a table, which it returns as an IPC stream
// (null when it refuses: then ON_REFUSAL(error)).
let table = 0;
function throughDuckdb(stream, onRefusal) {
  // A fresh connection each time: a failed insert leaves the connection's stream
  // state behind, and every later insert on it fails.
  const conn = db.connect();
  const tableName = `t${table++}`;
  try {
    conn.insertArrowFromIPCStream(stream, { name: tableName });
    return db.runQuery(conn._conn, `SELECT * FROM ${tableName}`);
  } catch (e) {
    onRefusal(e);
    return null;
  } finally {
    conn.close();
  }
}

mkdirSync(`${outDir}/arrow-rs`, { recursive: true });
mkdirSync(`${outDir}/duckdb`, { recursive: true });

const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm'));
// A new duckdb-wasm database (LOSSLESS: arrowLosslessConversion, which duckdb-wasm
// takes only when a database is opened; the default leaves the database unopened,
// as the cases here had it).
async function openDuckdb(lossless) {
  const instance = await duckdb.createDuckDB({
    mvp: { mainModule: `${dist}/duckdb-mvp.wasm`, mainWorker: `${dist}/duckdb-node-mvp.worker.cjs` },
    eh: { mainModule: `${dist}/duckdb-eh.wasm`, mainWorker: `${dist}/duckdb-node-eh.worker.cjs` },
  }, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await instance.instantiate(() => {});
  if (lossless !== undefined) instance.open({ arrowLosslessConversion: lossless });
  return instance;
}
const db = await openDuckdb();
console.log(`duckdb-wasm: DuckDB ${db.getVersion()}`);

for (const file of readdirSync(inDir).sort()) {
  if (!file.endsWith('.arrows')) continue;
  const name = file.slice(0, -'.arrows'.length);
  const ours = `${inDir}/${file}`;
  const bytes = readFileSync(ours);
  let expect;
  try {
    expect = readTable(bytes);
  } catch (e) {
    report('FAIL', 'apache-arrow', name, 'read', `apache-arrow cannot read ${ours}: ${e.message}`);
    continue;
  }

  let out = null;
  try {
    out = parquetWasm.Table.fromIPCStream(bytes).intoIPCStream();
  } catch (e) {
    refused('arrow-rs', name, e);
  }
  if (out) check('arrow-rs', name, ours, out, expect, true);

  let unsupported = false;
  out = throughDuckdb(bytes, (e) => {
    unsupported = refused('duckdb', name, e) && /Unsupported Internal Arrow Type/.test(messageOf(e));
  });
  if (out) check('duckdb', name, ours, out, { ...expect, columns: expect.columns.map(asDuckdb) }, false);
  // A case DuckDB refuses for the type of some column: each column alone, as our
  // writer writes it (`nanoarrow convert --columns`); a column of a type DuckDB
  // lacks is left out (the case's skip above counts it).
  if (unsupported && expect.columns.length > 1) {
    for (const column of expect.columns) {
      const part = `${name}.${column.name}`;
      const partFile = `${outDir}/duckdb/${part}.in.arrows`;
      const convert = run('convert', ours, partFile, '--columns', column.name);
      if (!convert.ok) {
        report('FAIL', 'duckdb', part, 'read', `nanoarrow convert ${ours} --columns ${column.name}: ${convert.out}`);
        continue;
      }
      const partOut = throughDuckdb(readFileSync(partFile), (e) => {
        if (!/Unsupported Internal Arrow Type/.test(messageOf(e))) refused('duckdb', part, e);
      });
      if (partOut) {
        check('duckdb', part, partFile, partOut, { ...expect, columns: [asDuckdb(column)] }, false);
      }
    }
  }
}
// The arrow-testing integration cases (INTEGRATION_DIR/*/CASE.json.gz): our writer
// writes each from its JSON (`nanoarrow convert CASE.json.gz CASE.stream`), and each
// implementation must read it as it reads arrow-testing's CASE.stream (written by
// Arrow C++, Java, ...): its two outputs hold the same schema and rows as this
// library prints them (`nanoarrow schema`, `nanoarrow cat --format jsonl`; the same
// bytes pass at once). arrow-rs keeps types, so its output of our stream must also
// VALIDATE against the case's JSON. One line a case and implementation, step
// "integration": SKIP when the implementation refuses both streams (a type or codec
// it lacks), or refuses arrow-testing's and there is nothing to compare with
// (DuckDB; arrow-rs still VALIDATEs); FAIL when it refuses ours but not theirs, or
// reads the two otherwise.
function integrationCase(json, name) {
  const dir = `${outDir}/integration/${name}`;
  mkdirSync(dir, { recursive: true });
  const ours = `${dir}/nanoarrow.stream`;
  const convert = run('convert', json, ours);
  if (!convert.ok) {
    report('FAIL', 'nanoarrow', name, 'integration', `nanoarrow convert ${json} ${ours}: ${convert.out}`);
    return;
  }
  // arrow-rs also reads our stream with LZ4-compressed bodies. parquet-wasm is built
  // without arrow-rs' codecs: it reads the cases whose buffers our writer left
  // uncompressed (length -1: compressing did not make them smaller) and refuses the
  // others (a skip).
  const lz4Stream = `${dir}/nanoarrow.lz4.stream`;
  const lz4Convert = run('convert', json, lz4Stream, '--compression', 'lz4');
  if (!lz4Convert.ok) {
    report('FAIL', 'nanoarrow', name, 'integration-lz4', `nanoarrow convert ${json} ${lz4Stream} --compression lz4: ${lz4Convert.out}`);
  } else {
    const rsLz4 = `${dir}/arrow-rs.lz4.arrows`;
    try {
      writeFileSync(rsLz4, parquetWasm.Table.fromIPCStream(readFileSync(lz4Stream)).intoIPCStream());
      const v = run('integration', '--mode=VALIDATE', `--json=${json}`, `--arrow=${rsLz4}`);
      if (v.ok) report('PASS', 'arrow-rs', name, 'integration-lz4');
      else report('FAIL', 'arrow-rs', name, 'integration-lz4', `${rsLz4} (arrow-rs' output of ${lz4Stream}) does not VALIDATE against ${json}: ${v.out}`);
    } catch (e) {
      refused('arrow-rs', name, e, 'integration-lz4');
    }
  }
  const gold = json.replace(/\.json\.gz$/, '.stream');
  const streams = { ours: readFileSync(ours), gold: readFileSync(gold) };
  const through = {
    'arrow-rs': (bytes) => parquetWasm.Table.fromIPCStream(bytes).intoIPCStream(),
    duckdb: (bytes) => throughDuckdb(bytes, (e) => { throw e; }),
  };
  for (const [impl, f] of Object.entries(through)) {
    const out = {};
    const error = {};
    for (const which of ['ours', 'gold']) {
      try {
        out[which] = f(streams[which]);
        writeFileSync(`${dir}/${impl}.${which}.arrows`, out[which]);
      } catch (e) {
        error[which] = messageOf(e);
      }
    }
    const file = (which) => `${dir}/${impl}.${which}.arrows`;
    const skipReason = (message) => {
      for (const [pattern, reason] of SKIPS) {
        const m = message.match(pattern);
        if (m) return reason(m);
      }
      return null;
    };
    if (error.ours) {
      if (!error.gold) {
        report('FAIL', impl, name, 'integration', `${impl} reads arrow-testing's ${gold} but refuses ours (${ours}): ${error.ours}`);
      } else if (skipReason(error.ours)) {
        report('SKIP', impl, name, 'integration', skipReason(error.ours));
      } else {
        // Refused for another reason, and arrow-testing's stream the same way: its bug.
        report('KNOWN', impl, name, 'integration',
          `${impl} fails on arrow-testing's stream too: ${error.ours.slice(0, 200)}`);
      }
      continue;
    }
    const problems = [];
    const validate = run('validate', file('ours'));
    if (!validate.ok) problems.push(`nanoarrow validate ${file('ours')}: ${validate.out}`);
    if (impl === 'arrow-rs') {
      // arrow-rs keeps every type: the case's JSON is the reference (arrow-testing's
      // streams differ from it where their writer changed something, as Arrow C++
      // does with a map's field names).
      const v = run('integration', '--mode=VALIDATE', `--json=${json}`, `--arrow=${file('ours')}`);
      if (!v.ok) problems.push(`${file('ours')} does not VALIDATE against ${json}: ${v.out}`);
      if (!problems.length && out.gold && /bigendian/.test(name)) {
        const g = run('integration', '--mode=VALIDATE', `--json=${json}`, `--arrow=${file('gold')}`);
        if (!g.ok) notes.add("arrow-rs reads big-endian streams (arrow-testing's 1.0.0-bigendian) as little-endian, without refusing them");
      }
      report(problems.length ? 'FAIL' : 'PASS', impl, name, 'integration', problems.join('; '));
      continue;
    }
    if (error.gold) {
      if (problems.length) report('FAIL', impl, name, 'integration', problems.join('; '));
      else report('SKIP', impl, name, 'integration', `nothing to compare with: ${skipReason(error.gold) ?? error.gold} (arrow-testing's stream)`);
      continue;
    }
    if (Buffer.compare(Buffer.from(out.ours), Buffer.from(out.gold)) !== 0) {
      const unstable = UNSTABLE[`${impl} ${name}`] ?? {};
      for (const [column, reason] of Object.entries(unstable)) notes.add(`${name} ${column}: ${reason}`);
      // The printed rows without the unstable columns.
      const stable = (text) => text.split('\n').map((line) => {
        if (!line.startsWith('{')) return line;
        const row = JSON.parse(line);
        for (const column of Object.keys(unstable)) delete row[column];
        return JSON.stringify(row);
      }).join('\n');
      for (const command of [['schema'], ['cat', '--format', 'jsonl']]) {
        const a = run(command[0], file('ours'), ...command.slice(1));
        const b = run(command[0], file('gold'), ...command.slice(1));
        if (command[0] === 'cat' && a.ok && b.ok) {
          a.out = stable(a.out);
          b.out = stable(b.out);
        }
        if (a.ok !== b.ok || a.out !== b.out) {
          problems.push(`nanoarrow ${command[0]} prints otherwise for ${impl}'s output of our stream` +
            ` (${file('ours')}) than of arrow-testing's (${file('gold')})`);
        }
      }
    }
    const key = `${impl} ${name} integration`;
    if (problems.length && KNOWN[key]) {
      unseenKnown.delete(key);
      report('KNOWN', impl, name, 'integration', KNOWN[key]);
    } else if (problems.length) {
      report('FAIL', impl, name, 'integration', problems.join('; '));
    } else {
      report('PASS', impl, name, 'integration');
    }
  }
}

if (integrationDir) {
  const cases = [];
  for (const version of readdirSync(integrationDir).sort()) {
    let files = [];
    try {
      files = readdirSync(`${integrationDir}/${version}`);
    } catch {
      continue;
    }
    for (const f of files.sort()) {
      if (f.endsWith('.json.gz') && files.includes(f.replace(/\.json\.gz$/, '.stream'))) {
        cases.push([`${integrationDir}/${version}/${f}`, `${version}/${f.slice(0, -'.json.gz'.length)}`]);
      }
    }
  }
  console.log(`\nintegration: ${cases.length} arrow-testing cases from ${integrationDir}`);
  for (const [json, name] of cases) integrationCase(json, name);
}

// DuckDB as the producer of its own data, under each of its Arrow output settings
// (duckdb_produced.mjs).
console.log('\nduckdb-produced: a zoo of DuckDB values, as duckdb-wasm writes them under its Arrow settings');
await duckdbProduced({ db: openDuckdb, outDir, run, report, readTable, differences, messageOf });

for (const key of unseenKnown) {
  const [impl, name, step] = key.split(' ');
  if (step === 'integration' && !integrationDir) continue;
  report('FAIL', impl, name, step === 'integration' ? step : 'read',
    `the known bug "${KNOWN[key]}" no longer shows: remove it from KNOWN`);
}

console.log('\nskipped (the implementation lacks a type or codec):');
for (const [reason, which] of Object.entries(skipped)) console.log(`  ${reason}: ${which.join(', ')}`);
console.log('known bugs of the other implementations:');
for (const [reason, which] of Object.entries(known)) console.log(`  ${which.join(', ')}: ${reason}`);
if (notes.size) console.log('notes (not counted: about other writers\' streams):');
for (const note of notes) console.log(`  ${note}`);
console.log('by implementation (read: it reads our streams; ours: we read its output):');
for (const [impl, steps] of Object.entries(byImpl)) {
  const text = Object.entries(steps).map(([step, results]) =>
    `${step} ${Object.entries(results).map(([r, n]) => `${n} ${r.toLowerCase()}`).join(', ')}`);
  console.log(`  ${impl}: ${text.join('; ')}`);
}
console.log(`${counts.PASS} passed, ${counts.FAIL} failed, ${counts.SKIP} skipped, ${counts.KNOWN} known`);
process.exit(counts.FAIL === 0 && counts.PASS > 0 ? 0 : 1);
