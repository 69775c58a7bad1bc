package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ebref/ebref/ddi"
)

func runDecode(e *env, args []string) int {
	const synopsis = "FILE|- [--text]\n\nDecodes a raw little-endian array of D3D12DDIARG_BARRIER_0094 records (72 bytes\neach, the C layout) from FILE, or from standard input for '-', and prints one\nJSON object per barrier per line. Records before a bad one are printed; the\nbad one ends the run with exit status 1 and a line naming its index, byte\noffset, field and value."
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	text := fs.Bool("text", false, "print one human-readable line per barrier instead of JSON")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(e, fs, synopsis, "want one FILE (or - for standard input), got %d arguments", len(pos))
	}
	name := pos[0]
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(e.stdin)
		name = "standard input"
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return inputError(e, "decode", err)
	}
	bs, decodeErr := ddi.DecodeBarriers(data)
	enc := json.NewEncoder(e.stdout)
	for i := range bs {
		if *text {
			fmt.Fprintf(e.stdout, "[%d] %s\n", i, bs[i].Text())
			continue
		}
		if err := enc.Encode(bs[i].Record(i)); err != nil {
			return inputError(e, "decode", err)
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
