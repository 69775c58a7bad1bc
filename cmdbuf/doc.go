// Package cmdbuf is the instruction set of ebref's simulated command
// processor: packets of little-endian dwords, each a header (opcode, payload
// length, flags; see Header for the bit layout) and a payload.
//
// The packets are the hardware's vocabulary, not D3D12's: WORK (a draw,
// dispatch, copy, ... with its stage, duration and memory accesses), WAIT
// (drain stages, hold stages), CACHE (flush and invalidate), DECOMPRESS and
// METADATA_INIT (compression), EVENT and FENCE packets, MARKER (attribution),
// CALL and CHAIN. Stages, caches and clients are hardware concepts too; a
// hardware profile (package hwmodel) gives them their behaviour.
//
// Decode reads one packet without allocating and returns typed views over
// its payload; the Append functions encode into a caller's slice. Buffer
// holds packets in chained chunks and dumps to and loads from a file.
// Listing and WriteListing disassemble.
//
// This package imports nothing of ebref.
package cmdbuf
