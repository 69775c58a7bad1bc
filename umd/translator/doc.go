// Package translator is the seam that judges anyone's barrier translation:
// a stateless Translator answers one accepted Barrier call (the records as
// the DDI passes them, with what ebref resolved of each: Request) with
// packets, in process through the Go interface or out of process over the
// versioned binary protocol of ebref_translator.h on standard input and
// output (Process, Serve). docs/translators.md describes the protocol.
//
// This package imports cmdbuf, ddi, hwmodel and internal/printable, and
// nothing else of ebref.
package translator
