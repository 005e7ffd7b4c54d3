// Round trips Arrow IPC files and streams through @uwdata/flechette, an Arrow
// implementation independent of this library and of Apache Arrow's
// (tools/check-flechette.sh drives it, once per integration case).
//
//   node flechette_roundtrip.mjs OUTDIR [--read=LABEL=IN]... [--compare=A,B]... LABEL=IN...
//
// For each LABEL=IN, flechette reads IN (tableFromIPC; IN may be an IPC file or
// stream) and writes the table back (tableToIPC) as
//
//   OUTDIR/LABEL.arrow_file   the IPC file format, uncompressed
//   OUTDIR/LABEL.stream       the IPC stream format, uncompressed
//   OUTDIR/LABEL.lz4.stream   the IPC stream format, LZ4_FRAME-compressed buffers
//
// and prints "LABEL ok: ..." or "LABEL refused: REASON" when flechette cannot take
// IN: it threw while reading or writing it, or IN has a property that flechette
// would silently get wrong or cannot write (refusalBeforeDecoding, refusalToWrite).
//
// --read=LABEL=IN only reads IN (for --compare; "LABEL refused: ..." or "LABEL read").
//
// Each --compare=A,B then compares what flechette read from the inputs labelled A and B:
// the schemas (field names, nullability, types, metadata; dictionary ids aside,
// tableToIPC renumbers them anyway), the batch lengths and every value. It prints
// "compare A B same", "compare A B differs: WHERE" or "compare A B n/a: WHY" (one of
// them was refused, or flechette cannot extract the values, e.g. month-day-nano
// intervals past 2^53 ns). The check script uses it to see that flechette finds in the
// file this library wrote from a case's JSON what it finds in arrow-testing's file
// of the case, without this library's reader being involved.
//
// The exit code is 0 unless the arguments are wrong (2) or this script fails (1).
//
// flechette ships no compression codecs: LZ4 frames are decoded and encoded with
// lz4js, ZSTD frames decoded with fzstd (pure JS, decoding only; nothing is written
// with ZSTD here).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// flechette's ES modules, by path: the package has no "exports" map and its "main"
// is a CommonJS bundle, which would hold a codec registry of its own (the codecs
// must be registered in the one that createTable uses).
import {
  tableToIPC, setCompressionCodec, CompressionType, Type,
} from '@uwdata/flechette/src/index.js';
// tableFromIPC(bytes) is createTable(decodeIPC(bytes)): called apart, the schema can
// be looked at before any buffer is.
import { decodeIPC } from '@uwdata/flechette/src/decode/decode-ipc.js';
import { createTable } from '@uwdata/flechette/src/decode/table-from-ipc.js';
import lz4 from 'lz4js';
import * as fzstd from 'fzstd';

setCompressionCodec(CompressionType.LZ4_FRAME, {
  encode: (data) => new Uint8Array(lz4.compress(data)),
  decode: (data) => new Uint8Array(lz4.decompress(data)),
});
setCompressionCodec(CompressionType.ZSTD, {
  encode: () => { throw new Error('no ZSTD encoder (fzstd only decodes)'); },
  decode: (data) => new Uint8Array(fzstd.decompress(data)),
});

// Keep 64-bit integers, timestamps and decimals exact (by default flechette makes
// JS numbers of them and throws past 2^53).
const READ_OPTIONS = { useBigInt: true, useBigIntTimestamp: true, useDecimalInt: true };

// The dictionaries (flechette Columns) that a batch's dictionary-encoded fields
// refer to, depth first, nested dictionaries included.
function dictionariesOf(batch, out = []) {
  if (!batch) return out;
  if (batch.type.typeId === Type.Dictionary) {
    out.push(batch.dictionary);
    dictionariesOf(batch.dictionary?.data[0], out);
  }
  for (const child of batch.children ?? []) dictionariesOf(child, out);
  return out;
}

// Properties of the decoded IPC data (before any buffer is looked at) that
// flechette would misrepresent without complaint. Returns the reason, or null.
function refusalBeforeDecoding(data) {
  // flechette 2.6.0 reads the schema's endianness but never acts on it: the buffers
  // of big-endian data would be taken as little-endian (and a dictionary's indices
  // taken so can make it allocate without bound).
  if (data.schema?.endianness === 1) {
    return 'big-endian data (flechette decodes every buffer as little-endian, unchecked)';
  }
  return null;
}

// Properties of a table that flechette's tableToIPC would write wrong or not at
// all. Returns the reason, or null.
function refusalToWrite(table) {
  // A dictionary shared by several fields (one id in several fields' DictionaryEncoding):
  // tableToIPC cannot write it. createTable keeps one dictionary column per id, typed
  // with the value type of the last field using the id; assembleSchema
  // (table-to-ipc.js) then looks each field's id up by its own value type object,
  // finds none for the other fields and throws "Cannot convert undefined to a BigInt".
  const fieldsOfId = new Map();
  // A dictionary-encoded field whose value type is nested (a dictionary of lists or
  // structs): encodeField (encode/schema.js) writes the children of the Dictionary
  // type, which has none, instead of those of its value type. The Field then has
  // no children although its type is a list or struct (Schema.fbs: "children apply
  // only to nested data types like Struct, List and Union"); flechette cannot read
  // such a file back either.
  let nestedDictionary = null;
  const visit = (field, path) => {
    const { type } = field;
    if (type.typeId === Type.Dictionary) {
      const key = `${type.id}`;
      fieldsOfId.set(key, [...(fieldsOfId.get(key) ?? []), path]);
      if ((type.dictionary.children ?? []).length > 0) nestedDictionary ??= path;
      (type.dictionary.children ?? []).forEach((c) => visit(c, `${path}.${c.name}`));
    }
    (type.children ?? []).forEach((c) => visit(c, `${path}.${c.name}`));
  };
  table.schema.fields.forEach((f) => visit(f, f.name));
  if (nestedDictionary !== null) {
    return `field ${nestedDictionary} is dictionary-encoded with a nested value type; ` +
      'flechette\'s tableToIPC writes such a field without its children (encodeField ' +
      'takes the children of the Dictionary type, not of its value type)';
  }
  for (const [id, paths] of fieldsOfId) {
    if (paths.length > 1) {
      return `dictionary id ${id} is shared by fields ${paths.join(', ')}; flechette's ` +
        'tableToIPC cannot write a shared dictionary (assembleSchema finds no id for all ' +
        'but one of the fields: "Cannot convert undefined to a BigInt")';
    }
  }
  // tableToIPC writes the dictionaries that the first batch of a column refers to,
  // once, before all record batches (assembleDictionaryBatches): a dictionary that
  // changes between batches (a delta or a replacement) would be written wrong.
  for (const [index, column] of table.children.entries()) {
    const first = dictionariesOf(column.data[0]);
    for (const batch of column.data.slice(1)) {
      const dicts = dictionariesOf(batch);
      if (dicts.length !== first.length || dicts.some((d, i) => d !== first[i])) {
        return `column "${table.names[index]}": dictionary changes between batches ` +
          '(delta or replacement); tableToIPC writes only the first batch\'s dictionary';
      }
    }
  }
  return null;
}

// Reads IN: { table } or { refused: REASON }.
function read(input) {
  let data;
  let table;
  try {
    data = decodeIPC(readFileSync(input));
  } catch (e) {
    return { refused: `flechette cannot read it: ${e.message}` };
  }
  const early = refusalBeforeDecoding(data);
  if (early !== null) return { refused: early };
  try {
    // Every buffer is located (and decompressed) here; values are only extracted
    // by the comparison.
    table = createTable(data, READ_OPTIONS);
  } catch (e) {
    return { refused: `flechette cannot read it: ${e.message}` };
  }
  return { table };
}

// Writes the three outputs of a table: null, or the reason flechette cannot.
function write(table, base) {
  const refused = refusalToWrite(table);
  if (refused !== null) return refused;
  let outputs;
  try {
    outputs = [
      ['arrow_file', tableToIPC(table, { format: 'file' })],
      ['stream', tableToIPC(table, { format: 'stream' })],
      ['lz4.stream', tableToIPC(table, { format: 'stream', codec: CompressionType.LZ4_FRAME })],
    ];
  } catch (e) {
    return `flechette cannot write it: ${e.message}`;
  }
  for (const [ext, bytes] of outputs) writeFileSync(`${base}.${ext}`, bytes);
  return null;
}

// ---- Comparison of two tables as flechette read them ----

// A JSON-able, exact form of a value or a type: BigInts, NaN, -0 and byte arrays
// spelled out, Maps as entry lists, functions (flechette's array constructors)
// dropped, dictionary ids left out.
function canonical(value) {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint': return `${value}n`;
    case 'number':
      if (Number.isNaN(value)) return 'NaN';
      if (Object.is(value, -0)) return '-0';
      return value;
    case 'function': return undefined;
    case 'object': break;
    default: return value;
  }
  if (ArrayBuffer.isView(value)) return Array.from(value, canonical);
  if (value instanceof Date) return value.toISOString();
  // Metadata (the only Maps here) as a sorted list of pairs: the order of its
  // key/value pairs carries no meaning (C++ does not keep it, for one).
  if (value instanceof Map) return Array.from(value.entries(), canonical).sort();
  if (Array.isArray(value)) return value.map(canonical);
  const out = {};
  for (const key of Object.keys(value).sort()) {
    if (key === 'id' && value.typeId === Type.Dictionary) continue;
    const c = canonical(value[key]);
    if (c !== undefined) out[key] = c;
  }
  return out;
}

const show = (value) => {
  const text = JSON.stringify(canonical(value));
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
};

// The first difference between tables a and b, null, or { na: REASON } when
// flechette cannot extract the values.
function difference(a, b) {
  const sa = JSON.stringify(canonical(a.schema.fields));
  const sb = JSON.stringify(canonical(b.schema.fields));
  if (sa !== sb) {
    for (let i = 0; i < Math.max(a.schema.fields.length, b.schema.fields.length); i++) {
      if (JSON.stringify(canonical(a.schema.fields[i])) !== JSON.stringify(canonical(b.schema.fields[i]))) {
        return `schema field ${i}: ${show(a.schema.fields[i])} vs ${show(b.schema.fields[i])}`;
      }
    }
  }
  if (JSON.stringify(canonical(a.schema.metadata)) !== JSON.stringify(canonical(b.schema.metadata))) {
    return `schema metadata: ${show(a.schema.metadata)} vs ${show(b.schema.metadata)}`;
  }
  for (let i = 0; i < a.children.length; i++) {
    const ca = a.children[i];
    const cb = b.children[i];
    const la = ca.data.map((batch) => batch.length);
    const lb = cb.data.map((batch) => batch.length);
    if (JSON.stringify(la) !== JSON.stringify(lb)) {
      return `column ${i} ("${a.names[i]}"): batch lengths ${show(la)} vs ${show(lb)}`;
    }
    let va;
    let vb;
    try {
      va = ca.toArray();
      vb = cb.toArray();
    } catch (e) {
      return { na: `flechette cannot extract the values of column ${i}: ${e.message}` };
    }
    for (let j = 0; j < va.length; j++) {
      const ja = JSON.stringify(canonical(va[j]));
      const jb = JSON.stringify(canonical(vb[j]));
      if (ja !== jb) {
        return `column ${i} ("${a.names[i]}") row ${j}: ${show(va[j])} vs ${show(vb[j])}`;
      }
    }
  }
  return null;
}

function main(argv) {
  const [outdir, ...rest] = argv;
  const compares = [];
  const jobs = [];
  const job = (arg, writes) => {
    if (!/^[A-Za-z0-9_.-]+=./.test(arg)) return false;
    const eq = arg.indexOf('=');
    jobs.push([arg.slice(0, eq), arg.slice(eq + 1), writes]);
    return true;
  };
  for (const arg of rest) {
    if (arg.startsWith('--compare=')) {
      const pair = arg.slice('--compare='.length).split(',');
      if (pair.length !== 2) return usage();
      compares.push(pair);
    } else if (arg.startsWith('--read=')) {
      if (!job(arg.slice('--read='.length), false)) return usage();
    } else if (!job(arg, true)) {
      return usage();
    }
  }
  if (outdir === undefined || jobs.length === 0) return usage();

  const tables = new Map();
  const refusals = new Map();
  for (const [label, input, writes] of jobs) {
    const result = read(input);
    if (result.refused) {
      refusals.set(label, result.refused);
      console.log(`${label} refused: ${result.refused}`);
      continue;
    }
    const { table } = result;
    tables.set(label, table);
    if (!writes) {
      console.log(`${label} read: ${table.numRows} rows, ${table.numCols} columns`);
      continue;
    }
    const refused = write(table, join(outdir, label));
    if (refused !== null) {
      console.log(`${label} refused: ${refused}`);
      continue;
    }
    console.log(`${label} ok: ${table.numRows} rows, ${table.numCols} columns, ` +
      `${table.children[0]?.data.length ?? 0} batches`);
  }

  for (const [a, b] of compares) {
    if (!tables.has(a) || !tables.has(b)) {
      const missing = tables.has(a) ? b : a;
      console.log(`compare ${a} ${b} n/a: flechette did not read ${missing}` +
        (refusals.has(missing) ? ` (${refusals.get(missing)})` : ''));
    } else {
      const diff = difference(tables.get(a), tables.get(b));
      console.log(diff === null ? `compare ${a} ${b} same`
        : diff.na ? `compare ${a} ${b} n/a: ${diff.na}`
        : `compare ${a} ${b} differs: ${diff}`);
    }
  }
  return 0;
}

function usage() {
  console.error('usage: node flechette_roundtrip.mjs OUTDIR [--read=LABEL=IN]... ' +
    '[--compare=A,B]... LABEL=IN...');
  return 2;
}

// Exits explicitly once done: node sometimes failed to exit on its own after the
// last line was written (1 run in 20 waited until check-flechette.sh's timeout).
// Output to files and pipes is written synchronously, so nothing is lost.
let code;
try {
  code = main(process.argv.slice(2));
} catch (e) {
  console.error(e.stack ?? e);
  code = 1;
}
process.exit(code);
