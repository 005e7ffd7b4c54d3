// The other direction of the Apache Arrow JS cross-check: apache-arrow writes IPC
// streams (.arrows) and files (.arrow) from known values, this library's reader
// reads them (tests/ipc/test_js_read.c dumps what it decoded as JSON) and the
// dumps are compared with the known values here.
//
//   node interop.mjs write DIR     writes CASE.arrows, CASE.arrow, CASE.expected.json
//   node interop.mjs compare DIR   compares every CASE.arrow[s].nanoarrow.json
//
// The canonical JSON form of a value (shared with test_js_read.c): null; booleans;
// integers up to 32 bits and floating point as numbers; 64-bit integers, decimals
// (unscaled) and month-day-nano nanoseconds as strings; strings as strings;
// binary as arrays of byte values; lists as arrays; structs as arrays of their
// fields; maps as arrays of [key, value]; unions as [type id, value]; day-time
// intervals as [days, ms]; month-day-nano as [months, days, "ns"]; dictionary
// values as the value they index. A batch is an array of columns (arrays of
// values), a case an array of batches.
//
// apache-arrow 21.2.0 has no list view, run-end encoded or string/binary view
// writer, so those types are only checked by this library's own round trip.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import {
  Binary, Bool, DateDay, DateMillisecond, Decimal, Dictionary, DurationSecond,
  FixedSizeBinary, FixedSizeList, Field, Float32, Float64, Int8, Int16, Int32, Int64,
  IntervalDayTime, IntervalYearMonth, LargeUtf8, List, Map_, Null, Struct,
  TimeMillisecond, TimeMicrosecond, TimestampMillisecond, Uint8, Uint16, Uint32, Uint64,
  Utf8, DenseUnion, SparseUnion, Table, RecordBatch, makeBuilder, makeData,
  tableToIPC, vectorFromArray, makeVector, Schema, LargeBinary, Type,
} from 'apache-arrow';

// ---- Canonical values computed from apache-arrow's in-memory vectors ----

function canonical(type, value) {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case Type.Null: return null;
    case Type.Bool: return Boolean(value);
    case Type.Int:
      return type.bitWidth === 64 ? `${value}` : Number(value);
    case Type.Float: return Number(value);
    case Type.Utf8: case Type.LargeUtf8: return value;
    case Type.Binary: case Type.LargeBinary: case Type.FixedSizeBinary:
      return Array.from(value);
    case Type.Date:
      // apache-arrow shows dates as epoch milliseconds.
      return type.unit === 0 ? Math.round(Number(value) / 86400000) : `${value}`;
    case Type.Time:
      return type.bitWidth === 64 ? `${value}` : Number(value);
    case Type.Timestamp: case Type.Duration: return `${value}`;
    case Type.Interval:
      if (type.unit === 0) return Array.from(value).reduce((y, m) => y * 12 + m); // YEAR_MONTH
      return Array.from(value).map(Number); // DAY_TIME
    case Type.Decimal: {
      // Little-endian 32-bit words of a two's complement integer.
      const words = Array.from(value);
      let n = 0n;
      for (let i = words.length - 1; i >= 0; i--) n = (n << 32n) | BigInt(words[i] >>> 0);
      const bits = BigInt(words.length * 32);
      if (n >> (bits - 1n)) n -= 1n << bits;
      return `${n}`;
    }
    case Type.List: case Type.LargeList: case Type.FixedSizeList:
      return Array.from({ length: value.length }, (_, i) =>
        canonical(type.children[0].type, value.get(i)));
    case Type.Struct:
      return type.children.map((f) => canonical(f.type, value[f.name]));
    case Type.Map: {
      const [keyField, valueField] = type.children[0].type.children;
      return Array.from(value, ([k, v]) =>
        [canonical(keyField.type, k), canonical(valueField.type, v)]);
    }
    case Type.Dictionary: return canonical(type.dictionary, value);
    default:
      throw new Error(`no canonical form for ${type}`);
  }
}

function canonicalColumn(vector) {
  const type = vector.type;
  if (type.typeId === Type.Union) {
    // [type id, value of the selected child] (apache-arrow's get() gives the value).
    const typeIds = vector.data.flatMap((data) =>
      Array.from(data.typeIds.subarray(data.offset, data.offset + data.length)));
    return typeIds.map((typeId, i) => {
      const child = type.children[type.typeIdToChildIndex[typeId]];
      return [typeId, canonical(child.type, vector.get(i))];
    });
  }
  return Array.from({ length: vector.length }, (_, i) => canonical(type, vector.get(i)));
}

function canonicalTable(table) {
  return table.batches.map((batch) =>
    batch.schema.fields.map((field, i) => canonicalColumn(batch.getChildAt(i))));
}

// ---- Cases ----

function column(name, type, values, nullable = true) {
  return { field: new Field(name, type, nullable), vector: vectorFromArray(values, type) };
}

function tableOf(columns) {
  const schema = new Schema(columns.map((c) => c.field));
  const batch = new RecordBatch(schema, makeData({
    type: new Struct(schema.fields),
    length: columns[0].vector.length,
    nullCount: 0,
    children: columns.map((c) => c.vector.data[0]),
  }));
  return new Table([batch]);
}

// Values [1, 'a', 3, 'dd', null] in an Int32 | Utf8 union.
function unionColumn(name, mode) {
  const children = [new Field('i', new Int32(), true), new Field('s', new Utf8(), true)];
  const typeIds = Int8Array.of(0, 1, 0, 1, 0);
  if (mode === 'dense') {
    const type = new DenseUnion([0, 1], children);
    const builder = makeBuilder({ type, nullValues: [null, undefined] });
    [1, 'a', 3, 'dd', null].forEach((v, i) => builder.append(v, typeIds[i]));
    return { field: new Field(name, type, true), vector: builder.finish().toVector() };
  }
  // apache-arrow 21.2.0's sparse union builder leaves children shorter than the
  // union (invalid: readers reject it), so this one is assembled from full-length
  // children.
  const type = new SparseUnion([0, 1], children);
  const data = makeData({
    type, length: 5, nullCount: 0, typeIds,
    children: [vectorFromArray([1, null, 3, null, null], new Int32()).data[0],
      vectorFromArray([null, 'a', null, 'dd', null], new Utf8()).data[0]],
  });
  return { field: new Field(name, type, true), vector: new Table({ x: makeVector(data) }).getChild('x') };
}

const cases = {
  integers: () => tableOf([
    column('i8', new Int8(), [1, -2, null, 127, -128]),
    column('i16', new Int16(), [300, null, -300, 0, 32767]),
    column('i32', new Int32(), [10, 20, null, -2147483648, 2147483647]),
    column('i64', new Int64(), [1n, null, -(2n ** 63n), 2n ** 40n, 0n]),
    column('u8', new Uint8(), [0, 255, null, 1, 2]),
    column('u16', new Uint16(), [0, 65535, 7, null, 9]),
    column('u32', new Uint32(), [0, 4294967295, 1, 2, null]),
    column('u64', new Uint64(), [0n, 2n ** 64n - 1n, null, 5n, 6n]),
  ]),
  floats_bools: () => tableOf([
    column('f32', new Float32(), [0.5, -1.25, null, 3, 1e30]),
    column('f64', new Float64(), [0.1, null, -2.5e300, 4, 5e-300]),
    column('b', new Bool(), [true, false, null, true, true]),
    column('n', new Null(), [null, null, null, null, null]),
  ]),
  strings: () => tableOf([
    column('s', new Utf8(), ['a', null, '', 'quote " and \\ back', 'ünïcode']),
    column('ls', new LargeUtf8(), ['x', 'yy', null, '', 'zzz']),
    column('bin', new Binary(), [Uint8Array.of(0, 1), new Uint8Array(0), null,
      Uint8Array.of(255), Uint8Array.of(7, 8, 9)]),
    column('lbin', new LargeBinary(), [Uint8Array.of(1), null, Uint8Array.of(2, 3),
      new Uint8Array(0), Uint8Array.of(4)]),
    column('fsb', new FixedSizeBinary(2), [Uint8Array.of(1, 2), null, Uint8Array.of(3, 4),
      Uint8Array.of(5, 6), Uint8Array.of(7, 8)]),
  ]),
  temporal: () => tableOf([
    column('date_day', new DateDay(), [new Date(0), new Date(86400000 * 19000), null]),
    column('date_ms', new DateMillisecond(), [new Date(0), null, new Date(86400000 * 3)]),
    column('time_ms', new TimeMillisecond(), [1000, null, 86399999]),
    column('time_us', new TimeMicrosecond(), [1n, 2n, null]),
    column('ts_ms', new TimestampMillisecond('UTC'), [0, 1700000000000, null]),
    column('dur_s', new DurationSecond(), [5n, null, -5n]),
    column('ym', new IntervalYearMonth(), [Int32Array.of(1, 2), null, Int32Array.of(0, 11)]),
    column('dt', new IntervalDayTime(), [Int32Array.of(1, 2), Int32Array.of(-3, 4), null]),
  ]),
  decimals: () => tableOf([
    column('d128', new Decimal(2, 10, 128),
      [Uint32Array.of(12345, 0, 0, 0), null,
        Uint32Array.of(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)]),
    column('d256', new Decimal(3, 40, 256),
      [Uint32Array.of(1, 0, 0, 0, 0, 0, 0, 0), Uint32Array.of(0, 0, 1, 0, 0, 0, 0, 0), null]),
  ]),
  nested: () => tableOf([
    column('l', new List(new Field('item', new Int32(), true)), [[1, 2], null, [], [3, null]]),
    column('fsl', new FixedSizeList(2, new Field('item', new Int16(), true)),
      [[1, 2], [3, null], null, [5, 6]]),
    column('st', new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)]),
      [{ a: 1, b: 'x' }, null, { a: null, b: 'z' }, { a: 4, b: null }]),
    column('m', new Map_(new Field('entries', new Struct([
      new Field('key', new Utf8(), false), new Field('value', new Int32(), true)]), false)),
      [new Map([['a', 1]]), null, new Map(), new Map([['b', 2], ['c', null]])]),
  ]),
  unions: () => tableOf([unionColumn('dense', 'dense'), unionColumn('sparse', 'sparse')]),
  dictionary: () => tableOf([
    column('d', new Dictionary(new Utf8(), new Int32()), ['a', 'b', null, 'a', 'c']),
  ]),
  two_batches: () => {
    const t1 = tableOf([column('x', new Int32(), [1, 2, 3]), column('s', new Utf8(), ['a', null, 'c'])]);
    const t2 = tableOf([column('x', new Int32(), [4, null]), column('s', new Utf8(), ['d', 'e'])]);
    return new Table([...t1.batches, ...t2.batches]);
  },
};

// ---- Commands ----

const [command, dir] = process.argv.slice(2);
if (command === 'write') {
  mkdirSync(dir, { recursive: true });
  for (const [name, make] of Object.entries(cases)) {
    const table = make();
    writeFileSync(`${dir}/${name}.arrows`, tableToIPC(table, 'stream'));
    writeFileSync(`${dir}/${name}.arrow`, tableToIPC(table, 'file'));
    writeFileSync(`${dir}/${name}.expected.json`, JSON.stringify(canonicalTable(table)));
  }
  console.log(`wrote ${Object.keys(cases).length} cases as streams and files into ${dir}`);
} else if (command === 'compare') {
  let passed = 0;
  let failed = 0;
  for (const name of Object.keys(cases)) {
    const expected = readFileSync(`${dir}/${name}.expected.json`, 'utf8');
    for (const ext of ['arrows', 'arrow']) {
      let problem = null;
      try {
        const actual = JSON.stringify(JSON.parse(
          readFileSync(`${dir}/${name}.${ext}.nanoarrow.json`, 'utf8')));
        if (actual !== expected) problem = `values differ:\n  got  ${actual}\n  want ${expected}`;
      } catch (e) {
        problem = e.message.split('\n')[0];
      }
      if (problem) {
        failed++;
        console.log(`FAIL js->nanoarrow ${name}.${ext}: ${problem}`);
      } else {
        passed++;
        console.log(`ok   js->nanoarrow ${name}.${ext}`);
      }
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
} else {
  console.error('usage: node interop.mjs write|compare DIR');
  process.exit(2);
}
