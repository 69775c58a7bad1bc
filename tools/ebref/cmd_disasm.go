package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ebref/ebref/cmdbuf"
)

// callFlags collects repeated --call ID=FILE flags.
type callFlags map[uint32]string

func (c callFlags) String() string {
	var ids []int
	for id := range c {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%d=%s", id, c[uint32(id)]))
	}
	return strings.Join(parts, ",")
}

func (c callFlags) Set(v string) error {
	id, file, ok := strings.Cut(v, "=")
	if !ok || file == "" {
		return fmt.Errorf("%q is not ID=FILE", v)
	}
	n, err := strconv.ParseUint(id, 0, 32)
	if err != nil {
		return fmt.Errorf("%q: buffer id %q is not a 32-bit number", v, id)
	}
	c[uint32(n)] = file
	return nil
}

func runDisasm(e *env, args []string) int {
	const synopsis = "FILE|- [--json] [--call ID=FILE]...\n\nDisassembles a packet dump: an EBCB command-buffer dump (cmdbuf.Dump), or raw\nlittle-endian packet dwords. One line per packet: dword offset, opcode and named\nfields; CALLed buffers given with --call are expanded, indented. Bad packets are\nlisted with what is wrong after '!'; if there are any, a summary line goes to\nstandard error and the exit status is 1."
	fs := flag.NewFlagSet("disasm", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object per packet per line")
	calls := callFlags{}
	fs.Var(calls, "call", "expand CALLs of buffer `ID=FILE` (repeatable)")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(e, fs, synopsis, "want one FILE (or - for standard input), got %d arguments", len(pos))
	}
	main, err := loadPackets(e, pos[0])
	if err != nil {
		return inputError(e, "disasm", err)
	}
	callees := map[uint32]*cmdbuf.Buffer{}
	for id, file := range calls {
		b, err := loadPackets(e, file)
		if err != nil {
			return inputError(e, "disasm", fmt.Errorf("--call %d: %w", id, err))
		}
		callees[id] = b
	}
	var resolve cmdbuf.Resolver
	if len(callees) > 0 {
		resolve = func(id uint32) (*cmdbuf.Buffer, bool) { b, ok := callees[id]; return b, ok }
	}
	// The listing is streamed: a CALL-expanded one may be long, and is
	// bounded by cmdbuf.MaxCalledPackets.
	enc := json.NewEncoder(e.stdout)
	var first cmdbuf.Line
	lines, bad := 0, 0
	werr := cmdbuf.WalkListing(main, resolve, func(l cmdbuf.Line) error {
		lines++
		if l.Error != "" {
			if bad == 0 {
				first = l
			}
			bad++
		}
		if *asJSON {
			return enc.Encode(l)
		}
		return cmdbuf.WriteLine(e.stdout, l)
	})
	if werr != nil {
		if stdoutLost(e) {
			return exitCannot // run says why, once
		}
		return inputError(e, "disasm", fmt.Errorf("%s: %w", displayName(pos[0]), werr))
	}
	if bad > 0 {
		noun := "packet"
		if bad > 1 {
			noun = "packets"
		}
		// What disassembly is for: a dump's bad packets, found.
		fmt.Fprintf(e.stderr, "ebref disasm: %s: %d bad %s; the first, at dword %d: %s\n", displayName(pos[0]), bad, noun, first.Offset, first.Error)
		return exitFailed
	}
	if lines == 0 {
		fmt.Fprintf(e.stderr, "ebref disasm: %s: no packets\n", displayName(pos[0]))
	}
	return 0
}

// loadPackets reads a file ('-': standard input) as an EBCB dump if it
// starts with the magic, else as raw little-endian dwords.
func loadPackets(e *env, name string) (*cmdbuf.Buffer, error) {
	var data []byte
	var err error
	data, err = readInput(e.stdin, name, "packet dump", maxPacketBytes)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte("EBCB")) {
		b, err := cmdbuf.Load(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", displayName(name), err)
		}
		return b, nil
	}
	words, err := cmdbuf.WordsFromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: raw packet dwords: %w", displayName(name), err)
	}
	return cmdbuf.FromWords(words), nil
}

func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}
