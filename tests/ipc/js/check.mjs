// Reads every IPC stream (.arrows) and file (.arrow) that test_writer_cases wrote
// into the directory given as argv[2] with Apache Arrow JS and compares the values
// it sees with the values the C test built (mirrored below).
//
// apache-arrow ships no LZ4/ZSTD codecs: lz4js and fzstd are registered here.
// Their output is copied into a fresh Uint8Array because apache-arrow needs
// 8-byte-aligned views of decompressed buffers.
// apache-arrow has no list view or run-end encoded types: those are checked by
// this library's own reader (tests/ipc/test_writer*.c), not here.
import { readFileSync, readdirSync } from 'node:fs';
import { tableFromIPC, compressionRegistry, CompressionType } from 'apache-arrow';
import { Message } from 'apache-arrow/fb/message';
import * as flatbuffers from 'flatbuffers';
import lz4 from 'lz4js';
import * as fzstd from 'fzstd';

compressionRegistry.set(CompressionType.LZ4_FRAME, {
  decode: (data) => new Uint8Array(lz4.decompress(data)),
});
compressionRegistry.set(CompressionType.ZSTD, {
  decode: (data) => new Uint8Array(fzstd.decompress(data)),
});

const primitives = {
  'i8:Int8': [1, -2, 3, -4, 5],
  'u16:Uint16': [1, 2, 3, 4, 65535],
  'i32:Int32': [10, null, 30, null, 50],
  'i64:Int64': ['1n', '-1n', '1099511627776n', '0n', '-5n'],
  'f32:Float32': [0.5, 1.5, -2.5, 3.5, 4.5],
  'f64:Float64': [1.25, null, 3.75, -4, 5.5],
  'b:Bool': [true, false, null, true, false],
  'n:Null': [null, null, null, null, null],
};
const slice = (columns, start, end) =>
  Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, v.slice(start, end)]));
const concat = (a, b) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v.concat(b[k])]));

const strings = {
  's:Utf8': ['a', null, 'ccc', ''],
  'bin:Binary': [[0, 1], [], null, [120, 121, 122]],
  'ls:LargeUtf8': ['x', 'yy', null, 'zzz'],
  'fsb:FixedSizeBinary[3]': [[97, 98, 99], [100, 101, 102], null, [103, 104, 105]],
};
const nested = {
  'l:List<Int32>': [[1, 2], null, [3]],
  'll:LargeList<Int32>': [[4], [], [5, 6]],
  'fsl:FixedSizeList[2]<Int16>': [[1, 2], [3, 4], null],
  'st:Struct<{a:Int32, b:Utf8}>': [{ a: 1, b: 'x' }, { a: 2, b: 'y' }, { a: 3, b: null }],
  'm:Map<{key:Utf8, value:Int32}>': [{ k: 1 }, {}, { a: 2, b: 3 }],
};
const unions = {
  'sparse:Union<Int32 | Utf8>': [1, 'a', 3, 'dd'],
  'dense:Union<Int32 | Utf8>': [1, 'a', 3, 'dd'],
};
const longString = 'a much longer string than twelve';

const expected = {
  primitives,
  'primitives.lz4': primitives,
  'primitives.zstd': primitives,
  primitives_sliced: slice(primitives, 1, 4),
  primitives_two_batches: concat(primitives, slice(primitives, 2, 5)),
  strings,
  strings_sliced: slice(strings, 1, 4),
  nested,
  nested_sliced: slice(nested, 1, 3),
  temporal: {
    'date32:Date32<DAY>': [0, 19000 * 86400000],
    'date64:Date64<MILLISECOND>': [0, 86400000],
    'time32:Time32<MILLISECOND>': [1000, 2000],
    'time64:Time64<MICROSECOND>': ['1n', '2n'],
    'ts:Timestamp<NANOSECOND, UTC>': [0.000001, 0.000002],
    'dur:Duration<SECOND>': ['5n', '-5n'],
    // apache-arrow shows YEAR_MONTH as [years, months]: 1 and 12 months.
    'months:Interval<YEAR_MONTH>': [[0, 1], [1, 0]],
    'day_time:Interval<DAY_TIME>': [[1, 2], [3, 4]],
    // months, days, then nanoseconds as two int32 words.
    'mdn:Interval<MONTH_DAY_NANO>': [[1, 2, 3, 0], [4, 5, 6, 0]],
  },
  decimal: {
    'd128:Decimal[10e+2]': ['"12345"', '"-1"'],
    'd256:Decimal[40e+3]': ['"1"', '"-7"'],
  },
  unions,
  unions_sliced: slice(unions, 1, 3),
  dictionary_delta: { 'd:Dictionary<Int32, Utf8>': ['a', 'b', 'a', 'c', 'a'] },
  // Dictionary written by the caller (ArrowIpcWriterWriteDictionaryBatch), zstd 19.
  dictionary_caller: { 'd:Dictionary<Int32, Utf8>': ['a', 'b', 'a', 'c', 'a'] },
  views: {
    'sv:Utf8View': ['short', longString, null],
    'bv:BinaryView': [[...'short'].map((c) => c.charCodeAt(0)),
      [...longString].map((c) => c.charCodeAt(0)), null],
  },
  metadata: { 'x:Int32': [42] },
  message_metadata: { 'x:Int32': [7, 7] },
};

const expectedMetadata = {
  metadata: {
    schema: { schema_key: 'schema_value' },
    x: { 'ARROW:extension:name': 'my.ext', 'ARROW:extension:metadata': '{}' },
  },
};

// Message.custom_metadata of each message of a stream, read with apache-arrow's
// generated flatbuffers bindings (its table reader does not surface them), as
// "type:key=value,...", type being the MessageHeader (1 Schema, 3 RecordBatch).
const expectedMessageMetadata = {
  message_metadata: ['1:message=schema', '3:message=batch 0', '3:message=batch 1'],
};

function messageMetadataOf(bytes) {
  const found = [];
  let pos = 0;
  while (pos + 8 <= bytes.length) {
    const length = bytes.readInt32LE(pos + 4);
    if (bytes.readUInt32LE(pos) !== 0xffffffff || length <= 0) break;
    const header = new Uint8Array(bytes.buffer, bytes.byteOffset + pos + 8, length);
    const message = Message.getRootAsMessage(new flatbuffers.ByteBuffer(header));
    const pairs = [];
    for (let i = 0; i < message.customMetadataLength(); i++) {
      const pair = message.customMetadata(i);
      pairs.push(`${pair.key()}=${pair.value()}`);
    }
    found.push(`${message.headerType()}:${pairs.join(',')}`);
    pos += 8 + length + Number(message.bodyLength());
  }
  return found;
}

function plain(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'object' && typeof value.toJSON === 'function') return value.toJSON();
  if (ArrayBuffer.isView(value)) return Array.from(value, (x) => (typeof x === 'bigint' ? `${x}` : x));
  return value;
}

function columnsOf(table) {
  const columns = {};
  for (const field of table.schema.fields) {
    const column = table.getChild(field.name);
    columns[`${field.name}:${field.type}`] = Array.from({ length: column.length }, (_, i) =>
      plain(column.get(i)));
  }
  return JSON.parse(JSON.stringify(columns, (k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
}

const dir = process.argv[2];
let passed = 0;
let failed = 0;
const seen = new Set();
for (const file of readdirSync(dir).sort()) {
  const match = file.match(/^(.*)\.(arrows?)$/);
  if (!match) continue;
  const [, name] = match;
  seen.add(name);
  let problem = null;
  try {
    if (!(name in expected)) throw new Error('no expected values for this case');
    const table = tableFromIPC(readFileSync(`${dir}/${file}`));
    const actual = JSON.stringify(columnsOf(table));
    const want = JSON.stringify(expected[name]);
    if (actual !== want) problem = `values differ:\n  got  ${actual}\n  want ${want}`;
    const messageMeta = expectedMessageMetadata[name];
    if (!problem && messageMeta) {
      const got = messageMetadataOf(readFileSync(`${dir}/${file}`));
      if (JSON.stringify(got) !== JSON.stringify(messageMeta)) {
        problem = `message metadata ${JSON.stringify(got)}`;
      }
    }
    const meta = expectedMetadata[name];
    if (!problem && meta) {
      const schemaMeta = Object.fromEntries(table.schema.metadata);
      if (JSON.stringify(schemaMeta) !== JSON.stringify(meta.schema)) {
        problem = `schema metadata ${JSON.stringify(schemaMeta)}`;
      }
      for (const field of table.schema.fields) {
        const fieldMeta = Object.fromEntries(field.metadata);
        if (JSON.stringify(fieldMeta) !== JSON.stringify(meta[field.name])) {
          problem = `field ${field.name} metadata ${JSON.stringify(fieldMeta)}`;
        }
      }
    }
  } catch (e) {
    problem = `${e.message.split('\n')[0]}`;
  }
  if (problem) {
    failed++;
    console.log(`FAIL ${file}: ${problem}`);
  } else {
    passed++;
    console.log(`ok   ${file}`);
  }
}
for (const name of Object.keys(expected)) {
  if (!seen.has(name)) console.log(`note: case ${name} was not written (codec not built?)`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
