package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// runTranslator is `ebref translator serve` (the reference translation
// over the protocol, on standard input and output) and `ebref translator
// replay FILE -- COMMAND...` (one request a crash left, sent again).
func runTranslator(e *env, args []string) int {
	const synopsis = "serve | replay [--timeout D] FILE -- COMMAND...\n\n" +
		"serve speaks the translator protocol (docs/translators.md) on standard input and\n" +
		"output with the reference translation, as a translator an author writes would.\n" +
		"replay sends the request a failed translator call left in FILE (with those sent\n" +
		"with it and not answered, if any) to COMMAND (one word is split as --translator\n" +
		"splits it) and disassembles the replies."
	fs := flag.NewFlagSet("translator", flag.ContinueOnError)
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if _, code, ok := parseFlags(e, fs, synopsis, args); !ok {
			return code
		}
		return usageError(e, fs, synopsis, "a subcommand: serve or replay")
	}
	switch args[0] {
	case "serve":
		if len(args) > 1 {
			return usageError(e, fs, synopsis, "serve: unexpected argument %q", args[1])
		}
		// Serve gets standard output itself, not run's checkedWriter: it
		// reports a failed write as its error, and on Linux reopens a pipe
		// to write without entering the scheduler (translator.Serve).
		out := e.stdout
		if cw, ok := out.(*checkedWriter); ok {
			out = cw.w
		}
		err := translator.Serve(e.stdin, out, umd.ReferenceOpener{}.Name(), umd.ReferenceOpener{}.Open)
		if err != nil {
			fmt.Fprintf(e.stderr, "ebref translator serve: %v\n", err)
			return exitUsage // what the peer sent broke the protocol
		}
		return 0
	case "replay":
		return replayRequest(e, args[1:])
	}
	return usageError(e, fs, synopsis, "unknown subcommand %q (serve, replay)", args[0])
}

func replayRequest(e *env, args []string) int {
	const synopsis = "[--timeout D] FILE -- COMMAND [ARG...]"
	fs := flag.NewFlagSet("translator replay", flag.ContinueOnError)
	timeout := fs.Duration("timeout", 5*time.Second, "how long the reply may take")
	dash := slices.Index(args, "--")
	if dash < 0 {
		dash = len(args)
	}
	pos, code, ok := parseFlags(e, fs, synopsis, args[:dash])
	if !ok {
		return code
	}
	rest := append(pos, args[dash:]...)
	if len(rest) < 3 || rest[1] != "--" {
		return usageError(e, fs, synopsis, "want FILE -- COMMAND")
	}
	argv := rest[2:]
	if len(argv) == 1 { // one word: a command line, split as --translator splits it
		var err error
		if argv, err = splitCommand(argv[0]); err != nil {
			fmt.Fprintf(e.stderr, "ebref translator replay: %q: %v\n", rest[2], err)
			return exitUsage
		}
	}
	data, err := readInput(nil, rest[0], "request file", translator.MaxDumpBytes)
	if err != nil {
		return inputError(e, "translator replay", err)
	}
	profs, reqs, err := splitDump(data)
	if err != nil {
		return inputError(e, "translator replay", fmt.Errorf("%s: %w", rest[0], err))
	}
	// Its standard error shows as it comes; a crash's request is kept
	// beside the one replayed.
	p, err := translator.Start(argv, translator.Options{Timeout: *timeout, Log: e.stderr, DumpDir: filepath.Dir(rest[0])})
	if err != nil {
		return cannotError(e, "translator replay", err)
	}
	defer p.Close()
	// The requests that were sent together are sent together again, each
	// list's on its profile: a translator that held its replies back may
	// have failed on any.
	opened := map[uint32]translator.Pipeliner{}
	var qs []translator.Pipeline
	var of []translator.Pipeline // each request's
	for i, req := range reqs {
		t, ok := opened[req.Profile]
		if !ok {
			tr, err := p.Open(profs[req.Profile])
			if err != nil {
				return cannotError(e, "translator replay", err)
			}
			t = tr.(translator.Pipeliner)
			opened[req.Profile] = t
		}
		if i == 0 || reqs[i-1].Profile != req.Profile {
			qs = append(qs, t.Pipeline())
		}
		q := qs[len(qs)-1]
		if !q.Send(req) { // two lists of one profile, together more than a queue holds
			q = t.Pipeline()
			qs = append(qs, q)
			q.Send(req)
		}
		of = append(of, q)
	}
	if err := p.SendTogether(qs...); err != nil {
		return cannotError(e, "translator replay", err)
	}
	for i, req := range reqs {
		q := of[i]
		words, err := q.Receive(nil)
		if err == nil {
			err = translator.Check(req, words)
		}
		if err != nil {
			// What replay is for: the translator's failure, reproduced.
			fmt.Fprintf(e.stderr, "ebref translator replay: Barrier #%d: %v\n", req.Call, err)
			return exitFailed
		}
		if len(reqs) > 1 {
			fmt.Fprintf(e.stdout, "Barrier #%d:\n", req.Call)
		}
		if err := cmdbuf.WriteListing(e.stdout, cmdbuf.Listing(cmdbuf.FromWords(words), nil)); err != nil {
			return exitCannot
		}
	}
	return exitOK
}

// splitDump reads a dump: a profile frame, a request frame, and the
// frames of the requests sent with it, if any (translator.Pipeline), each
// profile's frame before the first request that names it. The profiles
// are by the number the requests name them by.
func splitDump(data []byte) (map[uint32]*hwmodel.Profile, []*translator.Request, error) {
	profs := map[uint32]*hwmodel.Profile{}
	var reqs []*translator.Request
	for at := 0; len(reqs) == 0 || len(data) > 0; {
		switch {
		case len(data) < translator.FrameHeaderSize && len(profs) == 0:
			return nil, nil, fmt.Errorf("no profile frame: %d bytes left", len(data))
		case len(data) < translator.FrameHeaderSize:
			return nil, nil, fmt.Errorf("no request frame at byte %d: %d bytes left", at, len(data))
		}
		op, size := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:])
		switch {
		case len(profs) == 0 && op != translator.OpProfile:
			return nil, nil, fmt.Errorf("the profile frame's header has opcode %d, not %d: not a request file ebref wrote", op, translator.OpProfile)
		case op != translator.OpProfile && op != translator.OpRequest:
			return nil, nil, fmt.Errorf("the frame at byte %d has opcode %d, neither a profile's (%d) nor a request's (%d): not a request file ebref wrote", at, op, translator.OpProfile, translator.OpRequest)
		case uint64(size) > uint64(len(data)-translator.FrameHeaderSize):
			return nil, nil, fmt.Errorf("the frame at byte %d says %d bytes, more than the %d left", at, size, len(data)-translator.FrameHeaderSize)
		}
		body := data[translator.FrameHeaderSize : translator.FrameHeaderSize+int(size)]
		if op == translator.OpProfile {
			id, prof, err := translator.DecodeProfile(body)
			if err != nil {
				return nil, nil, fmt.Errorf("the profile at byte %d: %w", at, err)
			}
			profs[id] = prof
		} else {
			req := &translator.Request{}
			if err := translator.DecodeRequest(body, req); err != nil {
				return nil, nil, fmt.Errorf("request %d: %w", len(reqs)+1, err)
			}
			if profs[req.Profile] == nil {
				return nil, nil, fmt.Errorf("request %d (byte %d) names profile %d, which no frame before it gives", len(reqs)+1, at, req.Profile)
			}
			reqs = append(reqs, req)
		}
		n := translator.FrameHeaderSize + int(size)
		data, at = data[n:], at+n
	}
	return profs, reqs, nil
}

// translatorFlags are the flags of commands that take --translator.
type translatorFlags struct {
	cmd     *string
	timeout *time.Duration
	log     *string
	// instances is how many copies may run at once (0: the default,
	// translator.JobsPerCPU a CPU): hlk's --jobs, so that each case has
	// a copy.
	instances int
}

func addTranslatorFlags(fs *flag.FlagSet) translatorFlags {
	return translatorFlags{
		cmd: fs.String("translator", "", "translate every Barrier call with this translator (its executable, or a command line split as a POSIX shell would; docs/translators.md)"),
		timeout: fs.Duration("translator-timeout", 5*time.Second,
			"how long the translator may take to reply to one call"),
		log: fs.String("translator-log", "", "append the translator's standard error to this file (- for ebref's standard error; by default only a crash shows its last lines)"),
	}
}

// done closes the translator p (nil: none) at the end of command name and
// returns the command's exit status: 3 instead of 0 when its log could
// not be written.
func (tf translatorFlags) done(e *env, name string, p *translator.Process, code int) int {
	if p == nil {
		return code
	}
	p.Close()
	if err := p.LogErr(); err != nil {
		fmt.Fprintf(e.stderr, "ebref %s: --translator-log %s: %v\n", name, *tf.log, err)
		if code == exitOK {
			code = exitCannot
		}
	}
	return code
}

// start starts the translator the flags name for command name (nil
// without one); false, having said why, when it cannot.
func (tf translatorFlags) start(e *env, name string) (*translator.Process, int) {
	p, err := tf.process(e)
	if err != nil {
		fmt.Fprintf(e.stderr, "ebref %s: %v\n", name, err)
		var pc usageProblem
		if errors.As(err, &pc) {
			return nil, exitUsage // asked wrongly
		}
		return nil, exitCannot // the translator could not run
	}
	return p, exitOK
}

func (tf translatorFlags) process(e *env) (*translator.Process, error) {
	if *tf.cmd == "" {
		return nil, nil
	}
	if *tf.timeout <= 0 {
		return nil, usageProblem{fmt.Sprintf("--translator-timeout %v: want a positive duration", *tf.timeout)}
	}
	argv, err := splitCommand(*tf.cmd)
	if err != nil {
		return nil, usageProblem{fmt.Sprintf("--translator %q: %v", *tf.cmd, err)}
	}
	opts := translator.Options{Timeout: *tf.timeout, Instances: tf.instances}
	switch *tf.log {
	case "":
	case "-":
		opts.Log = e.stderr
	default:
		f, err := os.OpenFile(*tf.log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("--translator-log: %v", err)
		}
		opts.Log = f // closed when ebref exits
	}
	p, err := translator.Start(argv, opts)
	if err != nil {
		return nil, fmt.Errorf("--translator %q: %v", *tf.cmd, err)
	}
	return p, nil
}

// splitCommand splits a command line into words as a POSIX shell would,
// without expanding anything: blanks separate words; single quotes keep
// everything; double quotes keep everything but \" \\ \$ \`; a backslash
// outside quotes keeps the next character.
func splitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("a single quote is not closed")
			}
			w.WriteString(s[i+1 : i+1+j])
			i, inWord = i+1+j, true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("a double quote is not closed")
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("a backslash ends the line")
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return nil, errors.New("no command")
	}
	return words, nil
}
