package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// With EBREF_TEST_SERVE set, the test binary is `ebref translator serve`:
// the reference translation as a translator process.
func TestMain(m *testing.M) {
	switch os.Getenv("EBREF_TEST_SERVE") {
	case "":
	case "crash": // a hello, then a crash on the first call
		translator.Serve(os.Stdin, os.Stdout, "crash", func(*hwmodel.Profile) (translator.Translator, error) {
			return crash{}, nil
		})
		os.Exit(0)
	case "hang": // a hello, then no reply
		translator.Serve(os.Stdin, os.Stdout, "hang", func(*hwmodel.Profile) (translator.Translator, error) {
			return hang{}, nil
		})
		os.Exit(0)
	case "main": // the test binary is ebref itself, as main runs it
		main()
	default:
		os.Exit(run(&env{os.Stdin, os.Stdout, os.Stderr}, []string{"translator", "serve"}))
	}
	os.Exit(m.Run())
}

func TestTranslatorFlags(t *testing.T) {
	t.Setenv("EBREF_TEST_SERVE", "1")
	self := os.Args[0]

	code, stdout, stderr := ebref(t, nil, "hlk", "--suite", "cost", "--profile", "discrete", "--translator", self, "--quiet")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "CONFORMANT")
	assert.Contains(t, stdout, "translator ebref-reference")

	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	code, stdout, stderr = ebref(t, nil, "run", "../../hlk/suites/barriers/split.ebs", "--profile", "discrete",
		"--translator", self, "--compare", "reference", "--translator-log", log)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "compared with the reference: 0 of 2 Barrier calls differ")
	_, err := os.Stat(log)
	assert.NoError(t, err, "the log is made")

	// A log that cannot be written is not a run that succeeded.
	if _, err := os.Stat("/dev/full"); err == nil {
		code, _, stderr = ebref(t, nil, "run", "../../hlk/suites/barriers/split.ebs", "--profile", "discrete",
			"--translator", "sh -c 'echo from the translator >&2; exec "+self+"'", "--translator-log", "/dev/full")
		assert.Equal(t, 3, code, stderr)
		assert.Contains(t, stderr, "--translator-log /dev/full: write /dev/full: no space left on device")
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hlk", "--translator", "/nonexistent/translator"}, 3, `--translator "/nonexistent/translator"`},
		{[]string{"hlk", "--translator", "'open"}, 2, "a single quote is not closed"},
		{[]string{"hlk", "--translator", "/bin/true"}, 3, "before its hello"},
		{[]string{"run", "../../hlk/suites/barriers/split.ebs", "--compare", "reference"}, 2, "it needs --translator CMD"},
		{[]string{"run", "../../hlk/suites/barriers/split.ebs", "--compare", "legacy", "--translator", self}, 2, "the only comparison is reference"},
		{[]string{"hlk", "--translator", self, "--translator-timeout", "0s"}, 2, "want a positive duration"},
		{[]string{"bench", "--strategy", "translator"}, 2, "needs --translator CMD"},
		{[]string{"translator"}, 2, "a subcommand: serve or replay"},
		{[]string{"translator", "frob"}, 2, `unknown subcommand "frob"`},
		{[]string{"translator", "replay", "nofile"}, 2, "want FILE -- COMMAND"},
		{[]string{"translator", "replay", filepath.Join(dir, "missing.req"), "--", self}, 2, "no such file"},
		{[]string{"translator", "replay", "/dev/zero", "--", self}, 2, "not a regular file"},
		{[]string{"translator", "replay", log, "--", self}, 2, "no profile frame"},
	} {
		code, _, stderr := ebref(t, nil, c.args...)
		assert.Equal(t, c.code, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, "%v", c.args)
	}
}

// TestReplay: a request a crash left is sent again by replay, whose
// reply it disassembles.
func TestReplay(t *testing.T) {
	t.Setenv("EBREF_TEST_SERVE", "1")
	self := os.Args[0]
	// A request file as a crash leaves it: made by a translator that
	// never replies, so the request is dumped on the timeout.
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	t.Setenv("EBREF_TEST_SERVE", "hang")
	// One case, so that the run waits out one deadline: long enough for a
	// test binary's start on a loaded machine.
	one := filepath.Join(dir, "one.ebs")
	require.NoError(t, os.WriteFile(one, []byte("buffer B 4096 flags UNORDERED_ACCESS\nlist L DIRECT\n  dispatch uav B\n"+
		"  barrier buffer B sync COMPUTE_SHADING -> COPY access UNORDERED_ACCESS -> COPY_SOURCE\nend\n"), 0o644))
	code, stdout, stderr := ebref(t, nil, "run", one, "--profile", "discrete",
		"--translator", self, "--translator-timeout", "2s")
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, stdout, "it did not reply (no reply within 2s; it was killed)")
	t.Setenv("EBREF_TEST_SERVE", "1")
	dumps, err := filepath.Glob(filepath.Join(dir, "ebref-translator-*.req"))
	require.NoError(t, err)
	require.NotEmpty(t, dumps, stderr)
	code, stdout, stderr = ebref(t, nil, "translator", "replay", dumps[0], "--", self)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "WAIT")
}

// globalCall is a Barrier call of one global barrier, number call, on the
// profile numbered profile.
func globalCall(profile, call uint32) *translator.Request {
	b := []ddi.Barrier{ddi.NewGlobalBarrier(ddi.GlobalBarrier{SyncBefore: ddi.SyncComputeShading, SyncAfter: ddi.SyncPixelShading,
		AccessBefore: ddi.AccessUnorderedAccess, AccessAfter: ddi.AccessShaderResource})}
	all := ddi.DefinedAccessBits &^ ddi.AccessNoAccess
	return &translator.Request{Entry: translator.Entry0094, ListType: ddi.CommandListTypeDirect, Call: call, Profile: profile,
		Records: ddi.AppendEncodedBarriers(nil, b), Facts: []translator.Fact{{CompatBefore: all, CompatAfter: all}}}
}

// TestReplayListsTogether: a dump of several command lists' calls on two
// profiles, as a copy lost with them in one write leaves it, is replayed
// in one write again, each call on its own profile.
func TestReplayListsTogether(t *testing.T) {
	t.Setenv("EBREF_TEST_SERVE", "1")
	profiles := hwmodel.Profiles()
	var data []byte
	data = translator.AppendProfile(data, 4, profiles[0])
	data = translator.AppendRequest(data, globalCall(4, 1))
	data = translator.AppendRequest(data, globalCall(4, 2))
	data = translator.AppendProfile(data, 9, profiles[1])
	data = translator.AppendRequest(data, globalCall(9, 3))
	data = translator.AppendRequest(data, globalCall(4, 4)) // the first profile's again
	f := filepath.Join(t.TempDir(), "lists.req")
	require.NoError(t, os.WriteFile(f, data, 0o644))
	code, stdout, stderr := ebref(t, nil, "translator", "replay", f, "--", os.Args[0])
	require.Equal(t, 0, code, stderr)
	for call := 1; call <= 4; call++ {
		assert.Contains(t, stdout, fmt.Sprintf("Barrier #%d:", call))
	}
	assert.Contains(t, stdout, "WAIT")
}

type hang struct{}

func (hang) Translate(*translator.Request, []uint32) ([]uint32, error) {
	time.Sleep(time.Hour) // never replies; the deadline kills the process
	return nil, nil
}

type crash struct{}

func (crash) Translate(*translator.Request, []uint32) ([]uint32, error) {
	os.Exit(3)
	return nil, nil
}

// TestTranslatorGivenUp: a translator that crashes, and then cannot be
// started again, stops the run with exit status 2 saying why, and no
// verdict.
func TestTranslatorGivenUp(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir) // the crash's dump
	script := filepath.Join(dir, "once.sh")
	// The first start runs the crashing translator; every later one exits
	// before its hello.
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n"+
		"if [ -e "+dir+"/started ]; then exit 0; fi\n"+
		"touch "+dir+"/started\n"+
		"EBREF_TEST_SERVE=crash exec "+os.Args[0]+"\n"), 0o755))
	code, stdout, stderr := ebref(t, nil, "hlk", "--suite", "barriers", "--translator", script, "--quiet")
	assert.Equal(t, 3, code, stderr)
	assert.Contains(t, stderr, "the run stopped")
	assert.Contains(t, stderr, "could not be started 3 times in a row")
	assert.NotContains(t, stdout, "CONFORMANT")
}

// TestReplayBadDumps: a file that is not a dump ebref wrote is a usage
// error naming what is wrong with it, before any translator starts.
func TestReplayBadDumps(t *testing.T) {
	dir := t.TempDir()
	discrete, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	frame := func(op, size uint32, body int) []byte {
		b := binary.LittleEndian.AppendUint32(nil, op)
		return append(binary.LittleEndian.AppendUint32(b, size), make([]byte, body)...)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "no profile frame: 0 bytes left"},
		{"text", []byte("root:x:0:0:root:/root:/bin/sh\n"), "has opcode 1953460082, not 1: not a request file"},
		{"oversized", frame(translator.OpProfile, 1<<30, 16), "says 1073741824 bytes, more than the 16 left"},
		{"unknown-profile", append(translator.AppendProfile(nil, 1, discrete), translator.AppendRequest(nil, globalCall(7, 1))...),
			"request 1 (byte " + fmt.Sprint(len(translator.AppendProfile(nil, 1, discrete))) + ") names profile 7, which no frame before it gives"},
		{"no-request", translator.AppendProfile(nil, 1, discrete), "no request frame at byte " + fmt.Sprint(len(translator.AppendProfile(nil, 1, discrete))) + ": 0 bytes left"},
	} {
		f := filepath.Join(dir, c.name+".req")
		require.NoError(t, os.WriteFile(f, c.data, 0o644))
		code, _, stderr := ebref(t, nil, "translator", "replay", f, "--", "/nonexistent/translator")
		assert.Equal(t, 2, code, c.name)
		assert.Contains(t, stderr, c.want, c.name)
	}
}
