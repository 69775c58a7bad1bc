package main

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
)

func runDecode(e *env, args []string) int {
	const synopsis = "FILE|- [--ddi 0094|0088] [--text|--ebs]\n\nDecodes a raw little-endian array of barrier records (the C layout of\nd3d12umddi.h) from FILE, or from standard input for '-', and prints one JSON\nobject per barrier per line. --ddi 0094 (the default) reads\nD3D12DDIARG_BARRIER_0094 records (72 bytes each), what PFND3D12DDI_BARRIER_0094\ntakes; --ddi 0088 reads D3D12DDIARG_BARRIER_0088 records (80 bytes each), what\nPFND3D12DDI_BARRIER_0088 takes. Records before a bad one are printed; the bad\none ends the run with exit status 2 and a line naming its index, byte offset,\nfield and value. A file that reads whole as the other version prints nothing\nand says so. --ebs prints the records as one Barrier call in the scenario\nlanguage (docs/scenarios.md), resources as raw handles, to paste into a .ebs\nfile."
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	text := fs.Bool("text", false, "print one human-readable line per barrier instead of JSON")
	version := fs.String("ddi", "0094", "the record version: 0094 (72-byte records) or 0088 (80-byte records)")
	ebs := fs.Bool("ebs", false, "print the records as a scenario `call` block instead of JSON")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(e, fs, synopsis, "want one FILE (or - for standard input), got %d arguments", len(pos))
	}
	if *version != "0094" && *version != "0088" {
		return usageError(e, fs, synopsis, "--ddi %q: want 0094 or 0088", *version)
	}
	if *text && *ebs {
		return usageError(e, fs, synopsis, "--text and --ebs: choose one")
	}
	name := pos[0]
	var data []byte
	var err error
	data, err = readInput(e.stdin, name, "file of barrier records", maxRecordBytes)
	if name == "-" {
		name = "standard input"
	}
	if err != nil {
		return inputError(e, "decode", err)
	}
	// Both record types print through the same three views.
	type record interface {
		Text() string
		Record(int) ddi.BarrierRecord
	}
	var recs []record
	var ebsLine func(i int) string // record i in the scenario language
	var decodeErr error
	callKeyword, recordType := "call", "D3D12DDIARG_BARRIER_0094, 72 bytes each"
	if *version == "0088" {
		bs, err := ddi.DecodeBarriers0088(data)
		for i := range bs {
			recs = append(recs, &bs[i])
		}
		ebsLine = func(i int) string { return scenario.FormatBarrier0088(&bs[i]) }
		decodeErr = err
		callKeyword, recordType = "call-0088", "D3D12DDIARG_BARRIER_0088, 80 bytes each"
	} else {
		bs, err := ddi.DecodeBarriers(data)
		for i := range bs {
			recs = append(recs, &bs[i])
		}
		ebsLine = func(i int) string { return scenario.FormatBarrier(&bs[i]) }
		decodeErr = err
	}
	if decodeErr != nil {
		// Records of the other version misread as these decode as garbage
		// until one fails: when the other version reads the whole file,
		// print none and say so.
		other, otherVersion := error(nil), "0088"
		if *version == "0088" {
			_, other = ddi.DecodeBarriers(data)
			otherVersion = "0094"
		} else {
			_, other = ddi.DecodeBarriers0088(data)
		}
		if other == nil && len(data) > 0 {
			return inputError(e, "decode", fmt.Errorf("%s: %w; the file reads whole as %s records: try --ddi %s", name, decodeErr, otherVersion, otherVersion))
		}
	}
	if *ebs && len(recs) > 0 {
		fmt.Fprintf(e.stdout, "# %d barrier records (%s) of %s as one Barrier call.\n", len(recs), recordType, name)
		fmt.Fprintf(e.stdout, "# Resources are the records' raw handles: declare them and put their names in.\n%s\n", callKeyword)
		for i := range recs {
			fmt.Fprintf(e.stdout, "  %s # [%d]\n", ebsLine(i), i)
		}
		fmt.Fprintln(e.stdout, "end")
	}
	enc := json.NewEncoder(e.stdout)
	for i, r := range recs {
		switch {
		case *ebs:
		case *text:
			fmt.Fprintf(e.stdout, "[%d] %s\n", i, r.Text())
		default:
			if err := enc.Encode(r.Record(i)); err != nil {
				return cannotError(e, "decode", err)
			}
		}
	}
	if decodeErr != nil {
		return inputError(e, "decode", fmt.Errorf("%s: %w", name, decodeErr))
	}
	if len(data) == 0 {
		fmt.Fprintf(e.stderr, "ebref decode: %s: no records (0 bytes)\n", name)
	}
	return 0
}
