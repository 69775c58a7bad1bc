package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const strangeDir = "../../hwmodel/testdata/profiles/strange"

// Profiles that are legal but strange (one cache for everything, no
// caches at all, every client decoding compression) run the suites like
// any other, and conformantly.
func TestStrangeProfileFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(strangeDir, "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 3)
	args := []string{"hlk", "--suite", "hlk,barriers,write-read", "--quiet", "--json", filepath.Join(t.TempDir(), "r.json")}
	for _, f := range files {
		args = append(args, "--profile-file", f)
	}
	code, stdout, stderr := ebref(t, nil, args...)
	require.Equal(t, 0, code, stderr+stdout)
	assert.Contains(t, stdout, "CONFORMANT: ")
	for _, n := range []string{"one-cache", "no-caches", "all-aware"} {
		assert.Contains(t, stdout, "hlk                          "+n)
	}
	assert.NotContains(t, stdout, " discrete ", "files alone, without --profile")
	raw, err := os.ReadFile(args[5])
	require.NoError(t, err)
	var rep hlk.Report
	require.NoError(t, json.Unmarshal(raw, &rep))
	assert.Len(t, rep.Environment.ProfileFiles, 3)
	data, err := os.ReadFile(filepath.Join(strangeDir, "no-caches.json"))
	require.NoError(t, err)
	assert.Equal(t, hwmodel.ProfileDigest(data), rep.Environment.ProfileFiles["no-caches"], "a file's profile is recorded by its digest")
}

// A run on a file's profile is sharded and merged given the same file;
// --profile adds built-in profiles beside it; export then load gives the
// same profile; a bad file is one line naming the file, line and key.
func TestProfileFileFlags(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(strangeDir, "one-cache.json")
	var parts []string
	for _, k := range []string{"1/2", "2/2"} {
		p := filepath.Join(dir, strings.ReplaceAll(k, "/", "of")+".json")
		code, _, stderr := ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "coherent", "--profile-file", one, "--shard", k, "--quiet", "--json", p)
		require.Equal(t, 0, code, stderr)
		parts = append(parts, p)
	}
	code, stdout, stderr := ebref(t, nil, append([]string{"hlk", "merge", "--profile-file", one}, parts...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "CONFORMANT")
	assert.Contains(t, stdout, "hlk                          one-cache")
	assert.Contains(t, stdout, "hlk                          coherent")

	// export, then load: the same profile, and the same file.
	code, stdout, stderr = ebref(t, nil, "caps", "--profile", "rdna", "--export")
	require.Equal(t, 0, code, stderr)
	builtin, _ := hwmodel.BuiltinProfileFile("rdna")
	assert.Equal(t, string(builtin), stdout)
	mine := filepath.Join(dir, "mine.json")
	require.NoError(t, os.WriteFile(mine, []byte(strings.Replace(stdout, `"name": "rdna"`, `"name": "mine"`, 1)), 0o644))
	code, stdout, stderr = ebref(t, nil, "caps", "--profile-file", mine, "--export")
	require.Equal(t, 0, code, stderr)
	p, err := hwmodel.ParseProfile("mine", []byte(stdout))
	require.NoError(t, err)
	want, _ := hwmodel.LookupProfile("rdna")
	p.Name = "rdna"
	assert.Equal(t, want, p)
	code, stdout, _ = ebref(t, nil, "caps", "--profile-file", mine)
	require.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(stdout, "Profile mine: Modelled on AMD's RDNA family"), stdout)
	code, _, stderr = ebref(t, nil, "caps", "--profile", "rdna,xe", "--export")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--export prints one profile's file; 2 are named")

	// Every command that takes --profile takes --profile-file, and a bad
	// file is refused in one line naming it, its line and its key.
	bad := "../../hwmodel/testdata/profiles/bad/read-only-write.json"
	for _, cmd := range [][]string{{"hlk"}, {"caps"}, {"bench"}, {"run", "../../hlk/suites/hlk/aliasing.ebs"}} {
		code, stdout, stderr := ebref(t, nil, append(cmd, "--profile-file", bad)...)
		assert.Equal(t, 2, code, cmd)
		assert.Empty(t, stdout, cmd)
		assert.Equal(t, "ebref "+cmd[0]+": --profile-file: "+bad+":15: routes.DIRECT.COLOR: DIRECT COLOR writes into read-only TEXTURE_L0\n", stderr, cmd)
	}
	code, _, stderr = ebref(t, nil, "caps", "--profile-file", filepath.Join("..", "..", "hwmodel", "profiles", "xe.json"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "xe is a built-in profile's name; a profile file needs its own")
	code, _, stderr = ebref(t, nil, "hlk", "--write-costs", filepath.Join(dir, "c.txt"), "--profile-file", one)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--write-costs records the default run; it does not take --profile-file")
}
