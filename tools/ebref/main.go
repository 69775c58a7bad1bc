// Command ebref is the front end of ebref, the reference user-mode driver for
// D3D12 Enhanced Barriers: one program with subcommands. It is thin; the
// packages do the work.
//
//	ebref rules [--json]            the spec's rule tables
//	ebref caps [--profile P,...] [--profile-file F] [--json | --export] | --list
//	                                what the driver reports on a profile; its file
//	ebref decode FILE|- [--text]    decode raw D3D12DDIARG_BARRIER_0094 records
//	ebref disasm FILE|- [--json]    disassemble a packet dump
//	ebref run FILE.ebs [--profile P,...] [--profile-file F] [--json]
//	                                run one scenario (docs/scenarios.md)
//	ebref hlk [flags]               run the conformance suites (docs/conformance.md)
//	ebref hlk merge REPORT.json...  join the reports of a sharded run
//	ebref bench [--workload W] [--profile P,...] [--profile-file F] [--json F]
//	                                what barriers cost on frame structures (docs/bench.md)
//	ebref trace [--pid PID | -- COMMAND [ARGS...]] [--duration D] [--out FILE] [--json]
//	                                trace a running program's DDI calls (docs/trace.md)
//
// Exit status, for every command: 0 done, nothing wrong found; 1 the work
// found a failure; 2 a usage or input error; 3 ebref could not finish (an
// output it could not write, an interrupt, a translator or tracer that
// could not run). One line on stderr names what.
// `ebref --version` prints the version and build a report records.
//
// This command imports bench, caps, cmdbuf, ddi, hlk, hlk/reference,
// hlk/scenario, hwmodel, internal/dditrace, umd and umd/translator, and
// nothing else of ebref.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
)

// env is where a command reads and writes, so tests can run commands
// in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one subcommand.
type command struct {
	name    string
	args    string // the synopsis after the name
	summary string
	run     func(e *env, args []string) int
}

var commands = []command{
	{"rules", "[--json]", "print the spec's rule tables as ebref implements them", runRules},
	{"caps", "[--profile P,...] [--profile-file F] [--json | --export]", "print what the driver reports (OPTIONS_DATA_0089, queue layouts), or a profile's file", runCaps},
	{"decode", "FILE|- [--text]", "decode raw little-endian D3D12DDIARG_BARRIER_0094 records", runDecode},
	{"disasm", "FILE|- [--json]", "disassemble a command-buffer dump or raw packet dwords", runDisasm},
	{"run", "FILE.ebs [--profile P,...] [--profile-file F] [--json]", "run one scenario and show its packets, hazards, costs and expectations", runRun},
	{"hlk", "[flags] | merge REPORT...", "run the conformance suites on every profile; report console/JSON/JUnit", runHLK},
	{"bench", "[--workload W] [--profile P,...] [--profile-file F] [--json F]", "what barriers cost on frame structures: legacy against enhanced", runBench},
	{"translator", "serve | replay FILE -- CMD", "serve the reference translation over the translator protocol; replay a failed request", runTranslator},
	{"trace", "[--pid PID | -- COMMAND...] [--out F]", "trace a running program's DDI calls with eBPF uprobes (Linux amd64)", runTrace},
}

func main() {
	// A closed pipe on standard output (ebref hlk --json r.json | head)
	// is a write error, not death by SIGPIPE: the command writes its files
	// and exits 1 saying the output was lost (checkedWriter).
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	os.Exit(run(&env{os.Stdin, os.Stdout, os.Stderr}, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && args[0] == "help" { // ebref help CMD: CMD --help
			return run(e, []string{args[1], "--help"})
		}
		usage(e.stdout)
		return 0
	case "--version", "-version", "version":
		// What a report records as its version and build.
		fmt.Fprintf(e.stdout, "ebref %s (build %s, %s)\n", hlk.Version(), hlk.BuildID(), runtime.Version())
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			out := &checkedWriter{w: e.stdout}
			code := c.run(&env{e.stdin, out, e.stderr}, args[1:])
			if out.err != nil {
				fmt.Fprintf(e.stderr, "ebref %s: writing the output: %v\n", c.name, out.err)
				if code == exitOK {
					code = exitCannot
				}
			}
			return code
		}
	}
	fmt.Fprintf(e.stderr, "ebref: unknown command %q\n", args[0])
	usage(e.stderr)
	return 2
}

// checkedWriter remembers the first error writing to w (a full disk, a
// closed pipe) and writes nothing after it, so a command that cannot write
// its output does not report success.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ebref COMMAND [ARGS]\n\nebref is a reference user-mode driver for D3D12 Enhanced Barriers.\n\nCommands:")
	cs := append([]command(nil), commands...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	width := 0
	for _, c := range cs {
		width = max(width, len(c.args))
	}
	for _, c := range cs {
		fmt.Fprintf(w, "  %-8s %-*s  %s\n", c.name, width, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'ebref help COMMAND' (or 'ebref COMMAND --help') for a command's flags.")
	fmt.Fprintf(w, "\n%s\n", exitTable)
}

// parseFlags parses a command's flags, which may come before, after or
// between its positional arguments (Go's flag package stops at the first
// positional one). It returns the positional arguments, or an exit status
// when parsing ended the command: 0 after --help, 2 on a usage error.
func parseFlags(e *env, fs *flag.FlagSet, synopsis string, args []string) ([]string, int, bool) {
	fs.SetOutput(io.Discard)
	args, after := splitFlagsEnd(fs, args)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				commandUsage(e.stdout, fs, synopsis)
				return nil, 0, false
			}
			fmt.Fprintf(e.stderr, "ebref %s: %v\n", fs.Name(), err)
			commandUsage(e.stderr, fs, synopsis)
			return nil, 2, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(positional, after...), 0, true
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// splitFlagsEnd splits args at the "--" that ends the flags: what follows
// it is positional, even where it starts with a dash (a file named -x). A
// "--" that is a flag's value (--run --) does not end them.
func splitFlagsEnd(fs *flag.FlagSet, args []string) (flags, after []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return args[:i], args[i+1:]
		}
		if len(a) < 2 || a[0] != '-' || strings.Contains(a, "=") {
			continue
		}
		f := fs.Lookup(strings.TrimLeft(a, "-"))
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			i++ // the flag's value
		}
	}
	return args, nil
}

func commandUsage(w io.Writer, fs *flag.FlagSet, synopsis string) {
	fmt.Fprintf(w, "usage: ebref %s %s\n", fs.Name(), synopsis)
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	if b.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", b.String())
	}
	fmt.Fprintf(w, "\n%s\n", exitTable)
}

// usageError prints a one-line usage problem and the command's usage.
func usageError(e *env, fs *flag.FlagSet, synopsis, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "ebref %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	commandUsage(e.stderr, fs, synopsis)
	return exitUsage
}

// inputError prints the one line that names what was wrong with the input.
func inputError(e *env, name string, err error) int {
	fmt.Fprintf(e.stderr, "ebref %s: %v\n", name, err)
	return exitUsage
}

// profileFileFlag is a repeatable --profile-file.
type profileFileFlag []string

func (f *profileFileFlag) String() string { return strings.Join(*f, ",") }

func (f *profileFileFlag) Set(s string) error {
	*f = append(*f, s)
	return nil
}

// addProfileFileFlag adds --profile-file to a command that takes --profile.
func addProfileFileFlag(fs *flag.FlagSet) *profileFileFlag {
	var f profileFileFlag
	fs.Var(&f, "profile-file", "a hardware profile file (docs/hardware.md \"Profile files\"); repeatable: its profile runs beside those --profile names, alone when --profile is not given")
	return &f
}

// selectProfiles reads --profile and --profile-file together: the profiles
// --profile names, then each file's (read, checked and made known by
// name); with files and no --profile, the files' alone; with neither, nil
// (the command's default).
func selectProfiles(list string, files []string) ([]string, error) {
	var fromFiles []string
	for _, f := range files {
		p, digest, err := hwmodel.ReadProfileFile(f)
		if err != nil {
			return nil, fmt.Errorf("--profile-file: %w", err)
		}
		if p, err = hwmodel.AddProfile(p, digest); err != nil {
			return nil, fmt.Errorf("--profile-file %s: %w", f, err)
		}
		if slices.Contains(fromFiles, p.Name) {
			return nil, fmt.Errorf("--profile-file %s: profile %s is given twice", f, p.Name)
		}
		fromFiles = append(fromFiles, p.Name)
	}
	var out []string
	if list != "" {
		var err error
		if out, err = profileList(list); err != nil {
			return nil, err
		}
	}
	for _, n := range fromFiles {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// profilesError reports a --profile or --profile-file error: a bad
// profile file as an input error (its one line names the file, line and
// key), anything else as a usage error.
func profilesError(e *env, fs *flag.FlagSet, synopsis string, err error) int {
	if errors.Is(err, hwmodel.ErrProfile) {
		return inputError(e, fs.Name(), err)
	}
	return usageError(e, fs, synopsis, "%v", err)
}

// profileList reads --profile: comma-separated profile names, each one
// that exists, none twice.
func profileList(s string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if _, err := hwmodel.LookupProfile(p); err != nil {
			return nil, fmt.Errorf("--profile: %w", err)
		}
		if slices.Contains(out, p) {
			return nil, fmt.Errorf("--profile: %s is named twice", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// stdoutLost says whether writing standard output failed (which run
// reports once).
func stdoutLost(e *env) bool {
	cw, ok := e.stdout.(*checkedWriter)
	return ok && cw.err != nil
}

// cannotError prints why ebref could not finish: an output it could not
// write, an interrupt, a translator or tracer that could not run.
func cannotError(e *env, name string, err error) int {
	// Lost standard output is said once, by run (checkedWriter).
	if cw, ok := e.stdout.(*checkedWriter); !ok || cw.err == nil || !errors.Is(err, cw.err) {
		fmt.Fprintf(e.stderr, "ebref %s: %v\n", name, err)
	}
	return exitCannot
}

// The exit statuses, one table for every command (README, each --help,
// and TestExitStatuses runs each command on each cause).
const (
	exitOK     = 0 // the work was done and found nothing wrong
	exitFailed = 1 // the work found a failure
	exitUsage  = 2 // a usage or input error: ebref was asked wrongly or given bad input
	exitCannot = 3 // ebref could not finish: an output, an interrupt, a translator or tracer
)

// exitTable is the table as each --help ends with it.
const exitTable = `Exit status: 0 done, nothing wrong found; 1 the work found a failure; 2 a
usage or input error; 3 ebref could not finish (an output it could not write,
an interrupt, a translator or tracer that could not run).`
