// Round trips Arrow IPC files and streams through Apache Arrow JS (the apache-arrow
// package pinned in package.json), batch by batch; the "integration round trip"
// section of tools/check-js.sh drives it, once for all arrow-testing integration
// cases (node takes longer to start than all of a case's work).
//
//   node arrow_roundtrip.mjs OUT=IN...
//
// For each OUT=IN, apache-arrow reads IN (an IPC file or stream) with a
// RecordBatchReader, one record batch at a time, and writes the batches it read
// back, in order, with a RecordBatchFileWriter / RecordBatchStreamWriter as
//
//   OUT.arrow_file   the IPC file format, uncompressed
//   OUT.stream       the IPC stream format, uncompressed
//   OUT.lz4.stream   the IPC stream format, LZ4_FRAME-compressed bodies
//
// (OUT is a path without its extension, e.g. DIR/gold_file). It prints, per OUT:
//
//   OUT read: B batches, D dictionary batches (X deltas)   the messages of IN
//   OUT refused: REASON          apache-arrow cannot take IN (nothing written)
//   OUT failed: WHAT             this script threw on IN (a FAILURE)
//   OUT.EXT ok: B batches, D dictionary batches (X deltas)   an output written
//   OUT.EXT refused: REASON      apache-arrow cannot write that output (or would
//                                write it wrong: LZ4_PREFIX_BUG)
//   OUT.EXT failed: WHAT         apache-arrow wrote fewer record batches than it
//                                read, unexplained (a FAILURE)
//
// An IN is refused when apache-arrow throws while reading it, or when IN has a
// property apache-arrow would silently get wrong, seen before any buffer is decoded
// (refusalBeforeDecoding: big-endian data; refusalOfSchema: top-level fields of one
// name). Types apache-arrow 21.2.0 lacks (list views, run-end encoded) make its
// schema decoder throw 'Unrecognized type', a refusal too. It reads string/binary
// views and 32/64-bit decimals (Decimal's bitWidth sets the stride), so those are
// checked like the rest.
//
// Dictionaries: a RecordBatchStreamReader loads each dictionary message as it
// comes; a delta makes a new dictionary Vector whose chunks are the old ones plus
// the delta, a replacement a new Vector, and every record batch keeps the
// dictionary in force when it was read. The writers write a batch's dictionaries
// before it: all chunks of a dictionary not seen yet (the first as a plain
// dictionary batch, the others as deltas), only the new chunks of one that grew
// (deltas), all of a replaced one. So deltas and replacements of a stream stay
// messages of their own. A RecordBatchFileReader loads every dictionary message
// of the footer (deltas concatenated) when it opens the file, so all batches of a
// file see the final dictionaries; the file writer still writes the chunks as a
// dictionary batch and its deltas. The file writer refuses a replacement (the IPC
// file format has none): that output is then refused.
//
// Compression: apache-arrow ships no codec; LZ4 frames are decoded and encoded
// with lz4js, ZSTD frames decoded with fzstd (which cannot compress: nothing is
// written with ZSTD). Decoded buffers are copied into fresh Uint8Arrays, as
// apache-arrow needs 8-byte-aligned views.
//
// The exit code is 0 unless the arguments are wrong (2) or this script fails (1).
import { readFileSync, writeFileSync } from 'node:fs';
import {
  RecordBatchReader, RecordBatchFileWriter, RecordBatchStreamWriter,
  compressionRegistry, CompressionType,
} from 'apache-arrow';
import lz4 from 'lz4js';
import * as fzstd from 'fzstd';

// Whether the LZ4 encoder has made a buffer smaller (which RecordBatchWriter then
// writes compressed) since this was last cleared: see LZ4_PREFIX_BUG.
let lz4Compressed = false;
compressionRegistry.set(CompressionType.LZ4_FRAME, {
  encode: (data) => {
    const out = new Uint8Array(lz4.compress(data));
    // RecordBatchWriter._compressBodyBuffers keeps the compressed bytes when they
    // are fewer than the buffer's (otherwise it writes the buffer as is, length -1).
    if (out.length < data.length) lz4Compressed = true;
    return out;
  },
  decode: (data) => new Uint8Array(lz4.decompress(data)),
});
compressionRegistry.set(CompressionType.ZSTD, {
  decode: (data) => new Uint8Array(fzstd.decompress(data)),
});

// ---- A few flatbuffer fields of the IPC messages, read here (not by apache-arrow)
// to look at what apache-arrow ignores, and to count the messages of a file or
// stream. Field slots as in format/Message.fbs, Schema.fbs and File.fbs.

const MAGIC = 'ARROW1';
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY_BATCH = 2;
const HEADER_RECORD_BATCH = 3;

class Table {
  constructor(view, pos) {
    this.view = view;
    this.pos = pos;
    this.vtable = pos - view.getInt32(pos, true);
    this.vtableSize = view.getUint16(this.vtable, true);
  }

  // The position of the field in SLOT, or 0 when absent.
  field(slot) {
    const at = 4 + 2 * slot;
    if (at + 2 > this.vtableSize) return 0;
    const offset = this.view.getUint16(this.vtable + at, true);
    return offset === 0 ? 0 : this.pos + offset;
  }

  scalar(slot, getter, fallback) {
    const at = this.field(slot);
    return at === 0 ? fallback : getter.call(this.view, at, true);
  }

  table(slot) {
    const at = this.field(slot);
    return at === 0 ? null : new Table(this.view, at + this.view.getUint32(at, true));
  }

  static root(bytes, start) {
    const view = new DataView(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start);
    return new Table(view, view.getUint32(0, true));
  }
}

const isFile = (bytes) => bytes.length >= 6 &&
  new TextDecoder().decode(bytes.subarray(0, 6)) === MAGIC;

// The encapsulated messages from position pos: { type, isDelta, endianness, end }
// each, up to the end-of-stream marker, the end of bytes, or a framing that is not
// a message (a file's footer).
function messagesOf(bytes, pos) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const messages = [];
  while (pos + 4 <= bytes.length) {
    let length = view.getInt32(pos, true);
    let start = pos + 4;
    if (length === -1) { // continuation marker; without it, the pre-0.15 framing
      if (pos + 8 > bytes.length) break;
      length = view.getInt32(pos + 4, true);
      start = pos + 8;
    }
    if (length <= 0 || start + length > bytes.length) break;
    const message = Table.root(bytes, start);
    const type = message.scalar(1, DataView.prototype.getUint8, 0);
    const header = message.table(2);
    const bodyLength = Number(message.scalar(3, DataView.prototype.getBigInt64, 0n));
    const entry = { type };
    if (type === HEADER_SCHEMA && header) {
      entry.endianness = header.scalar(0, DataView.prototype.getInt16, 0);
    } else if (type === HEADER_DICTIONARY_BATCH && header) {
      entry.isDelta = header.scalar(2, DataView.prototype.getUint8, 0) !== 0;
    } else if (type !== HEADER_RECORD_BATCH) {
      break;
    }
    messages.push(entry);
    pos = start + length + bodyLength;
  }
  return messages;
}

// The endianness a file's footer or a stream's schema message declares (0 little,
// 1 big), or null when it cannot be found.
function endiannessOf(bytes) {
  if (isFile(bytes)) {
    if (bytes.length < 16) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const footerLength = view.getInt32(bytes.length - 10, true);
    const start = bytes.length - 10 - footerLength;
    if (footerLength <= 0 || start < 8) return null;
    const schema = Table.root(bytes, start).table(1);
    return schema ? schema.scalar(0, DataView.prototype.getInt16, 0) : null;
  }
  const first = messagesOf(bytes, 0)[0];
  return first?.type === HEADER_SCHEMA ? first.endianness : null;
}

// "B batches, D dictionary batches (X deltas)" of the messages of a file or stream.
function describe(bytes) {
  const messages = messagesOf(bytes, isFile(bytes) ? 8 : 0);
  const count = (f) => messages.filter(f).length;
  return `${count((m) => m.type === HEADER_RECORD_BATCH)} batches, ` +
    `${count((m) => m.type === HEADER_DICTIONARY_BATCH)} dictionary batches ` +
    `(${count((m) => m.isDelta)} deltas)`;
}

// apache-arrow 21.2.0 writes, before each buffer it compresses, the compressed
// length instead of the uncompressed one (RecordBatchWriter._compressBodyBuffers,
// src/ipc/writer.ts: lengthPrefix.writeInt64(0, BigInt(byteLength)) with byteLength
// = finalBuffer.length, the compressed bytes); Message.fbs (BodyCompressionMethod
// BUFFER) and Columnar.rst ("Compression") require the uncompressed length. Fixed
// upstream by apache/arrow-js PR #470 ("fix(ipc): body prefix must be uncompressed
// length"), not in 21.2.0 (the latest on npm when this was written). Its own reader
// sizes buffers from the LZ4 frame and does not notice; a reader that trusts the
// prefix (as the spec lets it: this library's does, and PyArrow's, which the PR
// reports rejecting such streams) rejects the buffer. An LZ4 output is kept only
// when no buffer was compressed (each written as is, -1 before it): the bug does
// not touch those.
const LZ4_PREFIX_BUG = 'apache-arrow 21.2.0 writes the compressed length, not the ' +
  'uncompressed length, before each compressed buffer (RecordBatchWriter.' +
  '_compressBodyBuffers; apache/arrow-js PR #470 fixes it)';

// Properties of IN that apache-arrow would misrepresent without complaint, looked
// at before apache-arrow decodes anything. Returns the reason, or null.
function refusalBeforeDecoding(bytes) {
  // apache-arrow 21.2.0 never reads the schema's endianness (decodeSchema in
  // ipc/metadata/message.ts skips it; only the writer sets it): big-endian buffers
  // would be taken as little-endian values, offsets and dictionary indices.
  if (endiannessOf(bytes) === 1) {
    return 'big-endian data (apache-arrow ignores the schema\'s endianness and decodes ' +
      'every buffer as little-endian)';
  }
  return null;
}

// Properties of the schema (as apache-arrow decoded it, before any record batch)
// that apache-arrow would misrepresent without complaint. Returns the reason, or null.
function refusalOfSchema(schema) {
  // Top-level fields of the same name: the record batches apache-arrow reads get a
  // schema of their own, made by Schema.assign (RecordBatch's constructor ->
  // ensureSameLengthData, src/recordbatch.ts), which matches fields by name: all
  // fields of one name take the type of the last (["ints": Int8, "ints": Int32]
  // becomes [Int32, Int32] over the Int8 data). RecordBatchWriter.write then sees a
  // schema other than the one it started with and closes the output: no batch is
  // written, or the next write throws "AsyncQueue is closed".
  const names = schema.fields.map((f) => f.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) {
    return 'top-level fields of the same name (apache-arrow\'s record batches ' +
      'merge fields by name, Schema.assign: the batch schema gives them all the type of ' +
      'the last one, and RecordBatchWriter drops the batches of that other schema)';
  }
  return null;
}

// Reads IN batch by batch: { schema, batches } or { refused: REASON }.
function read(bytes) {
  const early = refusalBeforeDecoding(bytes);
  if (early !== null) return { refused: early };
  try {
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    const { schema } = reader;
    if (!schema) return { refused: 'apache-arrow cannot read it: no schema' };
    const refused = refusalOfSchema(schema);
    if (refused !== null) return { refused };
    const batches = [];
    // A stream without record batches gives an empty placeholder batch, which
    // the writers skip (they still write the schema).
    for (const batch of reader) batches.push(batch);
    return { schema, batches };
  } catch (e) {
    return { refused: `apache-arrow cannot read it: ${firstLine(e)}` };
  }
}

const firstLine = (e) => `${e?.message ?? e}`.split('\n')[0];

// The bytes of the batches written with Writer (a RecordBatchFileWriter or
// RecordBatchStreamWriter class) and options.
function write(Writer, options, schema, batches) {
  const writer = new Writer(options);
  // The schema first, so that a case without batches is written too.
  writer.reset(undefined, schema);
  for (const batch of batches) writer.write(batch);
  return writer.finish().toUint8Array(true);
}

const OUTPUTS = [
  ['arrow_file', RecordBatchFileWriter, {}],
  ['stream', RecordBatchStreamWriter, {}],
  ['lz4.stream', RecordBatchStreamWriter, { compressionType: CompressionType.LZ4_FRAME }],
];

// Reads IN and writes OUT.EXT for each output, printing a line for each.
function roundTrip(out, input) {
  let bytes;
  try {
    bytes = new Uint8Array(readFileSync(input));
  } catch (e) {
    console.log(`${out} refused: cannot read ${input}: ${firstLine(e)}`);
    return;
  }
  const result = read(bytes);
  if (result.refused) {
    console.log(`${out} refused: ${result.refused}`);
    return;
  }
  const messagesRead = describe(bytes);
  const batchesRead = Number(messagesRead.split(' ')[0]);
  console.log(`${out} read: ${messagesRead}`);
  for (const [ext, Writer, options] of OUTPUTS) {
    let bytesOut;
    lz4Compressed = false;
    try {
      bytesOut = write(Writer, options, result.schema, result.batches);
    } catch (e) {
      console.log(`${out}.${ext} refused: apache-arrow cannot write it: ${firstLine(e)}`);
      continue;
    }
    if (options.compressionType === CompressionType.LZ4_FRAME && lz4Compressed) {
      console.log(`${out}.${ext} refused: ${LZ4_PREFIX_BUG}`);
      continue;
    }
    writeFileSync(`${out}.${ext}`, bytesOut);
    const written = describe(bytesOut);
    // RecordBatchWriter.write silently closes the output on a batch whose schema
    // differs from the first: a FAILURE until explained (refusalOfSchema).
    const batchesWritten = Number(written.split(' ')[0]);
    if (batchesWritten !== batchesRead) {
      console.log(`${out}.${ext} failed: apache-arrow wrote ${batchesWritten} of the ` +
        `${batchesRead} record batches it read`);
      continue;
    }
    console.log(`${out}.${ext} ok: ${written}`);
  }
}

function main(argv) {
  const jobs = argv.map((arg) => /^([^=]+)=(.+)$/.exec(arg));
  if (jobs.length === 0 || jobs.some((m) => m === null)) return usage();
  for (const [, out, input] of jobs) {
    try {
      roundTrip(out, input);
    } catch (e) {
      // This script's own failure on one input; go on with the others.
      console.log(`${out} failed: arrow_roundtrip.mjs threw: ${firstLine(e)}`);
    }
  }
  return 0;
}

function usage() {
  console.error('usage: node arrow_roundtrip.mjs OUT=IN...');
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
