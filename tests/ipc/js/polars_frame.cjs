// A polars frame of 1,000,000 rows with every type nodejs-polars offers, written by
// polars for tools/check-polars.sh, and this library's rewrites of it read back.
//
//   node polars_frame.cjs write OUTDIR
//       writes OUTDIR/frame.arrow_file, frame.lz4.arrow_file, frame.zstd.arrow_file
//       (LazyFrame.sinkIpc, newest compat level: string and binary views) and
//       OUTDIR/frame.stream, frame.lz4.stream, frame.zstd.stream (writeIPCStream,
//       oldest compat level: large string and large binary); prints "wrote NAME" or
//       "refused NAME: REASON" for each.
//   node polars_frame.cjs check LABEL=FILE...
//       reads each FILE and prints "LABEL same" when it holds the frame (every column:
//       name, type, nulls and values; doubles as polars prints them, so that NaN, the
//       infinities and -0 count), else "LABEL differs: WHERE" or "LABEL refused: REASON".
//
// The first five rows hold the edge values (int64 extremes; NaN, +inf, -inf, -0;
// an empty and a long multi-byte string; row 4 null in every column);
// tools/check-polars.sh checks how this library prints them.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const pl = require('nodejs-polars');

// POLARS_FRAME_ROWS (at least 5) makes a smaller frame (fuzz/seeds/polars is one).
const N = Math.max(5, Number(process.env.POLARS_FRAME_ROWS || 1000000));

function firstLine(e) {
  return String((e && e.message) || e).split('\n')[0].slice(0, 200);
}

function buildFrame() {
  const x = new BigInt64Array(N);
  const f = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    x[i] = BigInt(i) * 1000003n - 500000000000n;
    f[i] = i * 0.5 - 1000;
  }
  x[0] = -(2n ** 63n);
  x[1] = 2n ** 63n - 1n;
  f[0] = NaN;
  f[1] = Infinity;
  f[2] = -Infinity;
  f[3] = -0;
  const base = pl.DataFrame([pl.Series('x', x), pl.Series('f', f)]).withRowIndex('i');
  const i = pl.col('i').cast(pl.Int64);
  // Literals as int64 (a bare JS number is a float64 literal, which would make the
  // expressions floating point).
  const n = (v) => pl.lit(v).cast(pl.Int64);
  const nullAt4 = (expr, name) =>
    pl.when(pl.col('i').eq(4)).then(pl.lit(null)).otherwise(expr).alias(name);
  const text = pl.when(pl.col('i').eq(0)).then(pl.lit(''))
    .when(pl.col('i').eq(1)).then(pl.lit('a string longer than twelve bytes: ünïcødé ✓'))
    .otherwise(pl.format('row {} of the frame', i));
  return base.select(
    nullAt4(pl.col('x'), 'int64'),
    nullAt4(pl.col('f'), 'float64'),
    nullAt4(text, 'string'),
    nullAt4(text.str.encode('hex').str.decode('hex'), 'binary'),
    nullAt4(i.modulo(n(3)).eq(n(0)), 'bool'),
    nullAt4(i.sub(n(500000)).cast(pl.Int32).cast(pl.Date), 'date'),
    nullAt4(i.mul(n(86400000123)).cast(pl.Datetime('us')), 'datetime'),
    nullAt4(i.mul(n(3600000000007)).cast(pl.Datetime('ns', 'Europe/Paris')), 'datetime_tz'),
    nullAt4(pl.format('cat{}', i.modulo(n(7))).cast(pl.Categorical), 'categorical'),
    nullAt4(pl.concatList([i, i.add(n(1)), i.add(n(2))]), 'list'),
    nullAt4(pl.struct([i.alias('a'), pl.format('v{}', i).alias('b')]), 'struct'),
    nullAt4(i.sub(n(500000)).mul(n(1001)).cast(pl.Decimal(20, 3)), 'decimal'),
    nullAt4(i.mul(n(86399999)).modulo(n(86400000000000)).cast(pl.Time), 'time'),
    nullAt4(i.sub(n(500000)).mul(n(1234567)).cast(pl.Duration('us')), 'duration'),
    pl.lit(null).alias('null'),
  );
}

// Column names and dtypes as polars prints them (DataType.deserialize of nodejs-polars
// 0.25.2 throws on Binary, so each column's dtype is taken on its own).
function dtypeOf(series) {
  try { return String(series.dtype); } catch (e) { return '(binary)'; }
}

function compareFrames(expected, got) {
  if (got.height !== expected.height) return `differs: ${got.height} rows, ${expected.height} expected`;
  if (got.columns.join(',') !== expected.columns.join(',')) {
    return `differs: columns ${got.columns.join(',')}`;
  }
  for (const name of expected.columns) {
    let a = expected.getColumn(name);
    let b = got.getColumn(name);
    if (name === 'float64') {
      // As text, so that NaN equals NaN and -0 differs from 0 (polars 0.25.2 cannot
      // reinterpret doubles as integers).
      a = a.cast(pl.Utf8);
      b = b.cast(pl.Utf8);
    }
    const ta = dtypeOf(expected.getColumn(name));
    const tb = dtypeOf(got.getColumn(name));
    if (ta !== tb) return `differs: column ${name} is ${tb}, ${ta} expected`;
    if (!a.seriesEqual(b, true, false)) return `differs: column ${name} values`;
  }
  return 'same';
}

function main(argv) {
  const frame = buildFrame();
  if (argv[0] === 'write' && argv.length === 2) {
    const outdir = argv[1];
    for (const compression of ['uncompressed', 'lz4', 'zstd']) {
      const infix = compression === 'uncompressed' ? '' : `${compression}.`;
      const fileName = `frame.${infix}arrow_file`;
      try {
        frame.lazy().sinkIpc(path.join(outdir, fileName), { compression }).collectSync();
        console.log(`wrote ${fileName}`);
      } catch (e) {
        console.log(`refused ${fileName}: ${firstLine(e)}`);
      }
      const streamName = `frame.${infix}stream`;
      try {
        fs.writeFileSync(path.join(outdir, streamName), frame.writeIPCStream({ compression }));
        console.log(`wrote ${streamName}`);
      } catch (e) {
        console.log(`refused ${streamName}: ${firstLine(e)}`);
      }
    }
    return 0;
  }
  if (argv[0] === 'check') {
    for (const arg of argv.slice(1)) {
      const eq = arg.indexOf('=');
      const label = arg.slice(0, eq);
      let df;
      try {
        const bytes = fs.readFileSync(arg.slice(eq + 1));
        df = bytes.subarray(0, 6).toString('latin1') === 'ARROW1' ? pl.readIPC(bytes)
                                                                     : pl.readIPCStream(bytes);
      } catch (e) {
        console.log(`${label} refused: polars cannot read it: ${firstLine(e)}`);
        continue;
      }
      let result;
      try {
        result = compareFrames(frame, df);
      } catch (e) {
        result = `differs: comparing failed: ${firstLine(e)}`;
      }
      console.log(`${label} ${result}`);
    }
    return 0;
  }
  process.stderr.write('usage: node polars_frame.cjs write OUTDIR | check LABEL=FILE...\n');
  return 2;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`polars_frame.cjs: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 1;
}
process.stdout.write('', () => process.exit(process.exitCode));
