// DuckDB as an Arrow producer of its own data (wasm_check.mjs runs this part last).
//
// A zoo of DuckDB values (ZOO: every DuckDB type a column, NULL in every column, empty
// strings, lists and maps, strings longer than 12 bytes and non-ASCII, extreme
// integers, NaN and infinities; ROWS rows, more than one record batch) comes out of
// duckdb-wasm as Arrow IPC under each combination of DuckDB's Arrow output settings
// (SETTINGS, and arrowLosslessConversion, which duckdb-wasm takes when the database
// is opened), in both of duckdb-wasm's forms: runQuery() (an IPC file) and the
// pending-query API (an IPC stream, message by message). For each output of its own
// types (settings that change no type are checked once, and a note names them:
// duckdb-wasm 1.32.0 writes every result with 32-bit offsets, no views, format
// version 1.0, whatever the SET ones say):
//   ours:   `nanoarrow validate` passes, `nanoarrow convert` gives a stream in
//           which apache-arrow JS finds the same types, field metadata (extension
//           names) and values as in DuckDB's output, and `nanoarrow cat --format
//           jsonl` prints all ROWS rows of DuckDB's output, the same for our rewrite;
//   duckdb: DuckDB reads our rewrite back (Arrow C++ into a table, the same
//           settings) and finds in every row and column what it finds in its own
//           output: the reader is the same, so any difference is ours;
//   values: DuckDB's reading of its own output holds the zoo's SQL values (cast to
//           VARCHAR): a difference is DuckDB's, a KNOWN when listed below with the
//           reason, else a FAIL (an unlisted bug of theirs needs a verdict too).
// Results go through report(RESULT, 'duckdb-produced', NAME, STEP, detail), NAME
// naming the form and the settings, e.g. "file+lossless+string_view".
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tableFromIPC } from 'apache-arrow';

export const ROWS = 5000; // DuckDB writes a record batch per 2048 rows: 3 batches

const long = (n) => `'${'x'.repeat(n)}'`;
// [column, SQL type, (the type of the CASE expression, when not the column's,) SQL
// values cycled by the row number i]. No UNION value whose member is NULL: an Arrow
// union has no validity of its own, so DuckDB writes it as it writes a NULL union
// (the member's child null) and reads both back as NULL.
export const ZOO = [
  ['i8', 'TINYINT', ['-128', '127', '0', 'NULL', '-1']],
  ['i16', 'SMALLINT', ['-32768', '32767', 'NULL', '0']],
  ['i32', 'INTEGER', ['-2147483648', '2147483647', '0', 'NULL', 'i::INTEGER']],
  ['i64', 'BIGINT', ['-9223372036854775808', '9223372036854775807', 'NULL', 'i * 1000003']],
  ['i128', 'HUGEINT', ['-170141183460469231731687303715884105728', '170141183460469231731687303715884105727',
    '0', 'NULL', '-1', 'i::HUGEINT * 18446744073709551616']],
  ['u8', 'UTINYINT', ['0', '255', 'NULL']],
  ['u16', 'USMALLINT', ['0', '65535', 'NULL', '1']],
  ['u32', 'UINTEGER', ['4294967295', 'NULL', '0']],
  ['u64', 'UBIGINT', ['18446744073709551615', '0', 'NULL', 'i']],
  ['u128', 'UHUGEINT', ['340282366920938463463374607431768211455', '0', 'NULL', 'i::UHUGEINT * 18446744073709551617']],
  ['d4', 'DECIMAL(4,2)', ['-99.99', '99.99', '0', 'NULL', '0.01']],
  ['d9', 'DECIMAL(9,3)', ['-999999.999', '999999.999', 'NULL', '(i / 1000)']],
  ['d18', 'DECIMAL(18,6)', ['-999999999999.999999', '999999999999.999999', 'NULL', '0.000001']],
  ['d38', 'DECIMAL(38,10)', ['-9999999999999999999999999999.9999999999', '9999999999999999999999999999.9999999999',
    'NULL', '(i * 12345.6789)']],
  ['f32', 'FLOAT', ["'nan'", "'inf'", "'-inf'", '-0.0', '1.5', 'NULL', '3.4028235e38']],
  ['f64', 'DOUBLE', ["'nan'", "'-inf'", "'inf'", '-0.0', 'NULL', '2.2250738585072014e-308', 'i / 7']],
  ['str', 'VARCHAR', ["''", "'short'", "'twelve bytes'", "'thirteen byte'", "'héllo wörld — ünïcödé ✓ 🦆 数据'",
    'NULL', "'row ' || i", long(300)]],
  ['bin', 'BLOB', ["''", "'\\x00\\xFF\\x80abc'::BLOB", 'NULL', "'a blob longer than twelve bytes'::BLOB"]],
  ['bool', 'BOOLEAN', ['true', 'false', 'NULL']],
  ['date', 'DATE', ["'1970-01-01'", "'2024-02-29'", "'0001-01-01'", "'9999-12-31'", 'NULL', "DATE '2000-01-01' + i::INTEGER"]],
  ['time', 'TIME', ["'00:00:00'", "'23:59:59.999999'", 'NULL', "'12:34:56.5'"]],
  ['ts', 'TIMESTAMP', ["'1970-01-01 00:00:00'", "'2024-02-29 12:34:56.789012'", "'1677-09-22 00:00:00'", 'NULL',
    "TIMESTAMP '2000-01-01' + to_seconds(i)"]],
  ['ts_s', 'TIMESTAMP_S', ["'1970-01-01 00:00:01'", "'2262-04-11 23:47:16'", 'NULL']],
  ['ts_ms', 'TIMESTAMP_MS', ["'2024-02-29 12:34:56.789'", "'1900-01-01 00:00:00.001'", 'NULL']],
  ['ts_ns', 'TIMESTAMP_NS', ["'2024-02-29 12:34:56.789012345'", "'1677-09-22 00:00:00'", 'NULL', "'2262-04-11 23:47:16.854775'"]],
  ['tstz', 'TIMESTAMPTZ', ["'2024-02-29 12:34:56.789012+00'", "'1970-01-01 00:00:00+05:30'", 'NULL']],
  ['timetz', 'TIMETZ', ["'12:34:56+05:30'", "'00:00:00+00'", 'NULL', "'23:59:59.999999-15:59'"]],
  ['iv', 'INTERVAL', ['INTERVAL 1 DAY', "INTERVAL '1 year 2 months 3 days 04:05:06.789012'",
    "-INTERVAL '13 months 1 microsecond'", 'NULL', 'to_microseconds(i)']],
  ['uuid', 'UUID', ["'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'",
    "'7fffffff-0000-4000-8000-0123456789ab'", "'80000000-0000-0000-0000-000000000001'", 'NULL']],
  ['enum', "ENUM('happy', 'sad', 'a mood longer than twelve', 'é')", ["'happy'", "'sad'", 'NULL',
    "'a mood longer than twelve'", "'é'"]],
  ['bit', 'BIT', ["'010110'", "'1'", 'NULL', "'1010101010101010101010101010101010101010'"]],
  ['bignum', 'BIGNUM', ["'123456789012345678901234567890123456789012'", "'-1'", 'NULL', "'0'"]],
  ['enums', "ENUM('a', 'b', 'a value longer than twelve')[]", ["['a', NULL, 'a value longer than twelve']", '[]', 'NULL', "['b']"]],
  ['list', 'INTEGER[]', ['[]', '[1, NULL, 3]', 'NULL', '[NULL]', 'range(i % 7)::INTEGER[]']],
  ['nested', 'VARCHAR[][]', ['[]', "[[], NULL, ['a', NULL, 'a string longer than twelve']]", 'NULL', "[NULL, ['x']]"]],
  ['struct', 'STRUCT(a INTEGER, b VARCHAR, c DOUBLE[])', ["{'a': 1, 'b': 'one', 'c': [1.5]}",
    "{'a': NULL, 'b': NULL, 'c': NULL}", 'NULL', "{'a': -1, 'b': '', 'c': []}"]],
  ['map', 'MAP(VARCHAR, INTEGER)', ['MAP {}', "MAP {'k': 1, 'a key longer than twelve': NULL}", 'NULL', "MAP {'x': 2}"]],
  ['union', 'UNION(n INTEGER, s VARCHAR, l BIGINT[])', ['union_value(n := 1)',
    "union_value(s := 'a union string longer than twelve')", 'NULL', 'union_value(l := [1, NULL])']],
  ['arr', 'INTEGER[3]', 'INTEGER[]', ['[1, 2, 3]', '[NULL, NULL, NULL]', 'NULL', '[-1, 0, 2147483647]']],
  ['arrs', 'VARCHAR[2]', 'VARCHAR[]', ["['', 'a string longer than twelve']", 'NULL', "[NULL, 'é']"]],
  ['arrn', 'INTEGER[2][2]', 'INTEGER[][]', ['[[1, 2], [3, NULL]]', '[NULL, [4, 5]]', 'NULL']],
  ['unions', 'UNION(a INTEGER, b VARCHAR)[]', ["[union_value(a := 1)::UNION(a INTEGER, b VARCHAR), union_value(b := 'a string longer than twelve')::UNION(a INTEGER, b VARCHAR), NULL]", '[]', 'NULL']],
  ['mapstruct', 'MAP(INTEGER, STRUCT(x VARCHAR, y UUID))', ["MAP {1: {'x': 'y', 'y': NULL}, 2: NULL}", 'MAP {}', 'NULL']],
  ['structs', 'STRUCT(d DATE, u UUID, h HUGEINT)[]', [
    "[{'d': '2024-01-01', 'u': '00000000-0000-0000-0000-000000000001', 'h': -1}, NULL]", '[]', 'NULL']],
];

// The zoo's query: column i (the row number), then a column per ZOO entry, a CASE
// over i (fixed-size arrays through a list: DuckDB has no CASE of ARRAY type).
export function zooQuery(columns = ZOO) {
  const cols = columns.map(([name, type, ...rest]) => {
    const values = rest.pop();
    const via = rest[0] ?? type;
    const whens = values.map((v, k) => `WHEN ${k} THEN (${v})::${via}`).join(' ');
    return `(CASE i % ${values.length} ${whens} END)::${type} AS "${name}"`;
  });
  return `SELECT i, ${cols.join(', ')} FROM range(${ROWS}) t(i) ORDER BY i`;
}

// DuckDB's Arrow output settings (SET name = value), each tried on and off in every
// combination; arrowLosslessConversion is a database setting in duckdb-wasm.
export const SETTINGS = [
  ['string_view', 'produce_arrow_string_view', 'true'],
  ['list_view', 'arrow_output_list_view', 'true'],
  ['large', 'arrow_large_buffer_size', 'true'],
  ['v1.5', 'arrow_output_version', "'1.5'"],
];

// Bugs of DuckDB these outputs show, by "FORM STEP COLUMN" (FORM file or stream) or
// "lossless|plain STEP COLUMN" (any form, with or without lossless conversion), each
// judged against the Arrow format spec.
export const KNOWN = {
  'plain values i128':
    'Without lossless conversion DuckDB writes HUGEINT as Decimal128 of precision 38, scale 0, ' +
    'but HUGEINT reaches 39 digits (-2^127 and 2^127-1): those values are out of the range of ' +
    "the type (Schema.fbs Decimal: precision is the total number of decimal digits); DuckDB's " +
    'reading of its own output fails on them ("Negation of HUGEINT is out of range")',
  'lossless values bool':
    "DuckDB's arrow.bool8 column (lossless conversion) holds the bytes of its validity bitmap " +
    'instead of one byte a value (true 0x6d, false 0xdb, ...): a false value is non-zero, which ' +
    'the bool8 extension reads as true (apache-arrow JS and Arrow C++ see the same bytes)',
  'large produce bignum':
    'With arrow_large_buffer_size, duckdb-wasm fails to write a column that it writes as ' +
    'arrow.opaque over Binary (BIGNUM; BIT too with lossless conversion) at all ("realloc ' +
    'overflows size_t", the column alone as in the zoo): those combinations are checked ' +
    'without it',
  'large produce bit': 'see large produce bignum',
  'stream ours dictionary':
    "duckdb-wasm's pending-query stream (startPendingQuery/fetchQueryResults) sends no " +
    'dictionary batch for an ENUM column before the record batches that use it (Columnar.rst, ' +
    'IPC streaming format: dictionaries come first); this library refuses the stream with ' +
    "\"dictionary with id 0 has not been received\", as DuckDB's own Arrow C++ reader does; " +
    'the stream form is checked again without the ENUM columns',
};

// The stream that an IPC file holds (its messages, between the magic and the
// footer, end-of-stream marker included): duckdb-wasm's stream reader takes streams
// only (given a file it makes no table, without an error). A slice of the bytes, so
// no reader has a say in DuckDB's reading of its own output.
function streamOf(bytes) {
  const b = Buffer.from(bytes);
  if (b.length < 18 || b.subarray(0, 6).toString('latin1') !== 'ARROW1') return b;
  const footer = b.readInt32LE(b.length - 10);
  return b.subarray(8, b.length - 10 - footer);
}

// Columns that DuckDB writes, without lossless conversion, as a type that does not
// keep their meaning (its documented mapping, no bug): the values step leaves them
// out there (ours and duckdb still check them).
export const PLAIN_LOSSY = {
  timetz: 'TIMETZ becomes Time64 without the offset',
  bit: 'BIT becomes Binary holding its internal bytes',
};

// Runs the part: db(lossless) gives an instantiated duckdb-wasm database opened with
// that setting; helpers are wasm_check.mjs'.
export async function duckdbProduced({ db: openDb, outDir, run, report, readTable, differences, messageOf }) {
  const dir = `${outDir}/duckdb-produced`;
  mkdirSync(dir, { recursive: true });
  const unseenKnown = new Set(Object.keys(KNOWN));
  const seen = new Map(); // form, lossless and schema -> first NAME
  const sameAs = {}; // first NAME -> [NAMEs with the same types]
  const typesOf = {}; // "FORM LOSSLESS SETTINGS" -> column -> type
  const names = ZOO.map(([name]) => name);
  for (const lossless of [false, true]) {
    const db = await openDb(lossless);
    let conn = db.connect();
    conn.query(`CREATE TABLE zoo AS ${zooQuery()}`);
    let loaded = 0;
    // Reads BYTES into a new table with DuckDB (a table of this connection's); its
    // name. A failed insert leaves the connection unusable: a new one replaces it.
    const load = (bytes) => {
      const name = `back${loaded++}`;
      try {
        tables.push(name);
        conn.insertArrowFromIPCStream(streamOf(bytes), { name });
      } catch (e) {
        conn.close();
        conn = db.connect();
        throw e;
      }
      return name;
    };
    const query = (sql) => conn.query(sql).toArray().map((row) => row.toJSON());
    // Columns (of COLS) whose values differ between tables A and B (joined on i,
    // each value through CAST), with DuckDB's error where comparing fails.
    const differing = (a, b, cols, cast) => {
      const compare = (some) => {
        const expr = some.map((c, k) =>
          `count(*) FILTER (WHERE a."${c}"${cast} IS DISTINCT FROM b."${c}"${cast}) AS c${k}`);
        const [row] = query(`SELECT count(b.i) AS joined, ${expr.join(', ')} FROM ${a} a LEFT JOIN ${b} b USING (i)`);
        const found = some.filter((c, k) => Number(row[`c${k}`]) > 0);
        if (Number(row.joined) !== ROWS) found.unshift(`rows (${row.joined} of ${ROWS} found)`);
        return found;
      };
      try {
        return compare(cols);
      } catch {
        // One column at a time, to name the one that fails.
        const found = [];
        for (const c of cols) {
          try {
            found.push(...compare([c]).filter((x) => x === c));
          } catch (e) {
            found.push(`${c} (${messageOf(e)})`);
          }
        }
        return found;
      }
    };

    const tables = [];
    const checkOne = (form, settings, bytes, cols) => {
      try {
        checkBytes(form, settings, bytes, cols);
      } finally {
        // Each table DuckDB read is dropped: wasm memory is 4 GiB at most.
        for (const t of tables.splice(0)) conn.query(`DROP TABLE IF EXISTS ${t}`);
      }
    };
    const checkBytes = (form, settings, bytes, cols) => {
      const name = `${form}${lossless ? '+lossless' : ''}${settings.map((s) => `+${s}`).join('')}`;
      // Settings that change nothing in the types: the output is checked once (its
      // bytes differ anyway: DuckDB leaves padding and the values under nulls as they
      // were in memory).
      let key;
      try {
        const schema = tableFromIPC(bytes).schema;
        const fields = schema.fields.map((f) => [f.name, `${f.type}`, [...f.metadata]]);
        key = `${form} ${lossless} ${JSON.stringify(fields)}`;
        typesOf[`${form} ${lossless} ${settings.join('+')}`] = Object.fromEntries(fields.map(([n, ...t]) => [n, JSON.stringify(t)]));
      } catch {
        key = `${form} ${lossless} ${Buffer.from(bytes).toString('base64')}`;
      }
      if (seen.has(key)) {
        (sameAs[seen.get(key)] ??= []).push(name);
        return;
      }
      seen.set(key, name);
      const file = `${dir}/${name}.arrows`;
      writeFileSync(file, bytes);
      const knownOr = (step, column, detail) => {
        const c = column.split(' ')[0];
        const k = [`${form} ${step} ${c}`, `${lossless ? 'lossless' : 'plain'} ${step} ${c}`].find((x) => KNOWN[x]);
        if (!k) return false;
        unseenKnown.delete(k);
        report('KNOWN', 'duckdb-produced', name, step, `${column}: ${KNOWN[k]}`);
        return true;
      };

      // values: DuckDB's reading of its own output against the SQL values.
      let own = null;
      try {
        own = load(bytes);
      } catch (e) {
        if (!(form === 'stream' && /dictionar/.test(messageOf(e)))) {
          report('FAIL', 'duckdb-produced', name, 'values', `DuckDB cannot read its own output ${file}: ${messageOf(e)}`);
        }
      }
      if (own) {
        const valueCols = lossless ? cols : cols.filter((c) => !PLAIN_LOSSY[c]);
        const diffs = differing('zoo', own, valueCols, '::VARCHAR').filter((c) => !knownOr('values', c));
        if (diffs.length) report('FAIL', 'duckdb-produced', name, 'values', `DuckDB reads other values from its own output ${file} in ${diffs.join(', ')}`);
        else report('PASS', 'duckdb-produced', name, 'values');
      }

      // ours: validate, convert, and apache-arrow finds the same types and values.
      const validate = run('validate', file);
      if (!validate.ok) {
        if (form === 'stream' && /dictionary with id \d+ has not been received/.test(validate.out) && knownOr('ours', 'dictionary')) {
          // known: checked again below without the ENUM column
        } else {
          report('FAIL', 'duckdb-produced', name, 'ours', `nanoarrow validate ${file}: ${validate.out}`);
        }
        return;
      }
      const rewrite = `${file}.ours.arrows`;
      const convert = run('convert', file, rewrite);
      if (!convert.ok) {
        report('FAIL', 'duckdb-produced', name, 'ours', `nanoarrow convert ${file}: ${convert.out}`);
        return;
      }
      let theirs;
      let again;
      try {
        theirs = readTable(bytes);
        again = readTable(readFileSync(rewrite));
        const lost = differences(again, theirs, true);
        // `nanoarrow cat` prints every row of DuckDB's output, and the same rows for
        // our rewrite.
        const a = run('cat', file, '--format', 'jsonl');
        const b = run('cat', rewrite, '--format', 'jsonl');
        if (!a.ok) lost.push(`nanoarrow cat ${file}: ${a.out}`);
        else if (a.out.split('\n').length !== ROWS + 1) lost.push(`nanoarrow cat ${file} prints ${a.out.split('\n').length - 1} rows`);
        else if (!b.ok || a.out !== b.out) lost.push(`nanoarrow cat prints other rows for ${rewrite} than for ${file}`);
        if (lost.length) report('FAIL', 'duckdb-produced', name, 'ours', `our reading of ${file} differs (${rewrite}): ${lost.join('; ').slice(0, 2000)}`);
        else report('PASS', 'duckdb-produced', name, 'ours');
      } catch (e) {
        report('FAIL', 'duckdb-produced', name, 'ours', `apache-arrow cannot read ${file} or our rewrite ${rewrite}: ${e.message}`);
      }

      // duckdb: DuckDB reads our rewrite as it reads its own output.
      if (!own) return;
      let back;
      try {
        back = load(readFileSync(rewrite));
      } catch (e) {
        report('FAIL', 'duckdb-produced', name, 'duckdb', `DuckDB reads ${file} but not our rewrite ${rewrite}: ${messageOf(e)}`);
        return;
      }
      const types = (t) => JSON.stringify(query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${t}' ORDER BY ordinal_position`).map((r) => [r.column_name, r.data_type]));
      const diffs = differing(own, back, cols, '');
      if (types(own) !== types(back)) diffs.unshift(`types ${types(back)}, want ${types(own)}`);
      if (diffs.length) report('FAIL', 'duckdb-produced', name, 'duckdb', `DuckDB reads other values from our rewrite ${rewrite} than from ${file}: ${diffs.join(', ')}`);
      else report('PASS', 'duckdb-produced', name, 'duckdb');
    };

    let failingAlone = null;
    for (let mask = 0; mask < 1 << SETTINGS.length; mask++) {
      const on = SETTINGS.filter((_, k) => mask & (1 << k));
      const settings = on.map(([n]) => n);
      // RESET all, then SET the ones of this combination.
      for (const [, setting] of SETTINGS) conn.query(`RESET ${setting}`);
      for (const [, setting, value] of on) conn.query(`SET ${setting} = ${value}`);
      let cols = names;
      const select = (some) => `SELECT i, ${some.map((c) => `"${c}"`).join(', ')} FROM zoo ORDER BY i`;
      let file = null;
      try {
        file = db.runQuery(conn._conn, select(cols));
      } catch (e) {
        const name = `file${lossless ? '+lossless' : ''}${settings.map((x) => `+${x}`).join('')}`;
        // The columns that fail alone (found once a lossless mode; reported there).
        const failing = failingAlone ?? names.filter((c) => {
          try {
            db.runQuery(conn._conn, select([c]));
            return false;
          } catch {
            return true;
          }
        });
        const unknown = failing.filter((c) => !(settings.includes('large') && KNOWN[`large produce ${c}`]));
        if (failing.length && !unknown.length) {
          if (!failingAlone) {
            for (const c of failing) {
              unseenKnown.delete(`large produce ${c}`);
              report('KNOWN', 'duckdb-produced', name, 'produce', `${c}: ${KNOWN[`large produce ${c}`]
                .replace(/^see (.*)/, (m, k) => KNOWN[k])}`);
            }
          }
          failingAlone = failing;
          cols = names.filter((c) => !failing.includes(c));
          file = db.runQuery(conn._conn, select(cols));
        } else {
          report('FAIL', 'duckdb-produced', name, 'produce',
            `duckdb-wasm cannot write the zoo (${messageOf(e)}); alone, it cannot write ${failing.join(', ') || 'every column'}`);
          continue;
        }
      }
      checkOne('file', settings, file, cols);
      // The stream form: once with every column, once without the ENUM ones (see KNOWN).
      for (const some of [cols, cols.filter((c) => !/ENUM/.test(ZOO.find(([n]) => n === c)[1]))]) {
        let header = db.startPendingQuery(conn._conn, select(some), true);
        while (header === null) header = db.pollPendingQuery(conn._conn);
        const parts = [Buffer.from(header)];
        for (;;) {
          const part = db.fetchQueryResults(conn._conn);
          if (!part || part.length === 0) break;
          parts.push(Buffer.from(part));
        }
        parts.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])); // end of stream
        checkOne(some === cols ? 'stream' : 'stream-no-enum', settings, Buffer.concat(parts), some);
      }
    }
    conn.close();
  }
  // A setting changes types when some output with it has a column of another type
  // than the same output without it.
  const inert = SETTINGS.filter(([setting]) => Object.entries(typesOf).every(([k, types]) => {
    const [form, lossless, on] = k.split(' ');
    const parts = on ? on.split('+') : [];
    if (!parts.includes(setting)) return true;
    const without = typesOf[`${form} ${lossless} ${parts.filter((p) => p !== setting).join('+')}`];
    return !without || Object.keys(types).every((c) => !(c in without) || without[c] === types[c]);
  })).map(([setting, name, value]) => `${name} = ${value} (${setting})`);
  if (inert.length) console.log(`duckdb-produced: settings that change no type in this duckdb-wasm: ${inert.join(', ')}`);
  for (const [first, others] of Object.entries(sameAs)) {
    console.log(`duckdb-produced: the same types as ${first} (checked there): ${others.join(', ')}`);
  }
  for (const key of unseenKnown) {
    report('FAIL', 'duckdb-produced', key.split(' ')[0], key.split(' ')[1],
      `the known bug "${KNOWN[key]}" no longer shows: remove it from KNOWN`);
  }
}
