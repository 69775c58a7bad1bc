package hwmodel

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The files that replaced the Go profiles give exactly those values.
func TestBuiltinProfilesAreFiles(t *testing.T) {
	for _, want := range goProfiles {
		got, err := LookupProfile(want.Name)
		require.NoError(t, err)
		assert.Equal(t, want, got, want.Name)
	}
}

// Each built-in file is what MarshalFile writes of it, and a profile
// written and read again is the same profile: export then load is the
// identity.
func TestProfileFilesRoundTrip(t *testing.T) {
	for _, p := range Profiles() {
		data, ok := BuiltinProfileFile(p.Name)
		require.True(t, ok, p.Name)
		assert.Equal(t, string(data), string(p.MarshalFile()), "%s's file is MarshalFile's form", p.Name)
		q, err := ParseProfile(p.Name+".json", p.MarshalFile())
		require.NoError(t, err)
		assert.Equal(t, p, q)
	}
	for _, dir := range []string{"strange"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "profiles", dir, "*.json"))
		require.NotEmpty(t, files)
		for _, f := range files {
			p, _, err := ReadProfileFile(f)
			require.NoError(t, err, f)
			q, err := ParseProfile(f, p.MarshalFile())
			require.NoError(t, err, f)
			assert.Equal(t, p, q, f)
		}
	}
}

// A bad profile file is refused with its file, line and key, and the rule
// or the expected form: testdata/profiles/bad/NAME.json's error is the
// line of testdata/profiles/bad/errors.txt that starts with NAME.json.
func TestBadProfileFiles(t *testing.T) {
	want := map[string]string{}
	text, err := os.ReadFile("testdata/profiles/bad/errors.txt")
	require.NoError(t, err)
	for _, l := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		name, msg, ok := strings.Cut(l, " ")
		require.True(t, ok, l)
		want[name] = msg
	}
	files, _ := filepath.Glob("testdata/profiles/bad/*.json")
	require.Len(t, files, len(want), "every bad file has its error, and every error its file")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			_, _, err := ReadProfileFile(f)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrProfile)
			var pe *ProfileError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, f, pe.File)
			assert.Equal(t, want[filepath.Base(f)], strings.TrimPrefix(err.Error(), f+":"))
		})
	}
}

// hostile builds files no one would write by hand.
func hostile(name string) []byte {
	switch name {
	case "deep":
		return []byte(`{"format": ` + strings.Repeat("[", 30000) + strings.Repeat("]", 30000) + `}`)
	case "wide":
		var b bytes.Buffer
		for b.Len() < MaxProfileFileBytes-4096 {
			b.WriteString(`"xxxxxxxxxxxxxxxx", `)
		}
		b.WriteString(`"x"`)
		base, _ := BuiltinProfileFile("discrete")
		return bytes.Replace(base, []byte(`"sources": [`), append([]byte(`"sources": [`), b.Bytes()...), 1)
	case "keys":
		var b bytes.Buffer
		b.WriteString("{")
		for i := 0; b.Len() < MaxProfileFileBytes-100; i++ {
			fmt.Fprintf(&b, `"k%d": 1, `, i)
		}
		b.WriteString(`"end": 0}`)
		return b.Bytes()
	case "huge":
		return bytes.Repeat([]byte(" "), 8*MaxProfileFileBytes)
	}
	panic(name)
}

// Hostile files: clear errors, and memory bounded by the file's size
// (allocation measured with runtime.MemStats, never timed).
func TestHostileProfileFiles(t *testing.T) {
	for _, c := range []struct{ name, err string }{
		{"deep", "hostile:1: format[0][0][0][0][0][0][0]: nested deeper than 8 levels"},
		{"wide", "hostile:5: sources: 3073 sources; at most 32"},
		{"keys", `hostile:1: k0: an unknown key (a profile has format, name, description, sources, caches, routes, decodes_compression, compresses, costs)`},
		{"huge", "hostile: 524288 bytes; a profile file is at most 65536"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := hostile(c.name)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := ParseProfile("hostile", data)
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			assert.Equal(t, c.err, err.Error())
			// A 64 KiB file is read with at most 64 bytes of allocation a
			// byte of input (a tree node per token, at worst).
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64*MaxProfileFileBytes), "bytes allocated")
		})
	}
	// A file far past the cap is read no further than the cap.
	path := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(1<<30)) // a sparse GiB of NULs
	require.NoError(t, f.Close())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err = ReadProfileFile(path)
	runtime.ReadMemStats(&after)
	assert.EqualError(t, err, path+": 65537 bytes; a profile file is at most 65536")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated reading a 1 GiB file")
	_, _, err = ReadProfileFile(filepath.Join(t.TempDir(), "absent.json"))
	assert.ErrorIs(t, err, ErrProfile)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// Validate names the rule a profile breaks and the key it concerns.
func TestValidateRules(t *testing.T) {
	base := func() *Profile {
		p, err := ParseProfile("discrete.json", mustBuiltin(t, "discrete"))
		require.NoError(t, err)
		return p
	}
	for _, c := range []struct {
		name string
		edit func(p *Profile)
		key  string
		rule string
	}{
		{"self parent", func(p *Profile) { p.Caches[0].Parent = cmdbuf.CacheColor }, "caches[0].parent", "COLOR is its own parent"},
		{"loop", func(p *Profile) { p.Caches[4].Parent = cmdbuf.CacheColor }, "caches[0].parent", "the parents loop (COLOR → L2 → COLOR)"},
		{"duplicate", func(p *Profile) { p.Caches[1].Kind = cmdbuf.CacheColor }, "caches[1].kind", "COLOR is listed twice"},
		{"write into read-only", func(p *Profile) { p.Route[EngineCompute][cmdbuf.ClientShaderStore] = cmdbuf.CacheTextureL0 },
			"routes.COMPUTE.SHADER_STORE", "COMPUTE SHADER_STORE writes into read-only TEXTURE_L0"},
		{"write back into read-only", func(p *Profile) { p.Caches[0].Parent = cmdbuf.CacheTextureL0 },
			"caches[0].parent", "COLOR holds writes and writes them back into TEXTURE_L0, which is read-only"},
		{"missing cache", func(p *Profile) { p.Caches = p.Caches[:5] }, "routes.VIDEO_DECODE.VIDEO", "routes to VIDEO, which the profile lacks"},
		{"missing parent", func(p *Profile) {
			p.Caches[5].Parent = cmdbuf.CacheShaderL0
			p.Caches = append(p.Caches[:3], p.Caches[4:]...)
		},
			"caches[4].parent", "VIDEO has parent SHADER_L0, which the profile lacks"},
		{"metadata", func(p *Profile) { p.Aware[EngineDirect][cmdbuf.ClientBlit] = false }, "decodes_compression.DIRECT", "DIRECT cannot reach the metadata"},
		{"no engine reaches metadata", func(p *Profile) {
			p.Aware = [NumEngineKinds][cmdbuf.NumClients]bool{}
		}, "compresses", "nothing can reach the metadata"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := base()
			c.edit(p)
			err := p.Validate()
			var re *RuleError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, c.key, re.Key)
			assert.Contains(t, re.Rule, c.rule)
			assert.True(t, errors.Is(err, ErrProfile))
		})
	}
}

func mustBuiltin(t *testing.T, name string) []byte {
	data, ok := BuiltinProfileFile(name)
	require.True(t, ok)
	return data
}

// Files give profiles LookupProfile finds; a built-in name, or one name
// with two contents, is refused.
func TestAddProfile(t *testing.T) {
	p, digest, err := ReadProfileFile("testdata/profiles/strange/one-cache.json")
	require.NoError(t, err)
	q, err := AddProfile(p, digest)
	require.NoError(t, err)
	got, err := LookupProfile(p.Name)
	require.NoError(t, err)
	assert.Same(t, q, got)
	d, ok := ProfileFileDigest(p.Name)
	assert.True(t, ok)
	assert.Equal(t, digest, d)
	again, err := AddProfile(p, digest)
	require.NoError(t, err)
	assert.Same(t, q, again, "the same file again is the same profile")
	_, err = AddProfile(p, "sha256:other")
	assert.ErrorContains(t, err, "two files name a profile one-cache")
	b, _ := LookupProfile("discrete")
	_, err = AddProfile(b, "sha256:x")
	assert.ErrorContains(t, err, "discrete is a built-in profile's name")
	_, ok = ProfileFileDigest("discrete")
	assert.False(t, ok)
	assert.NotContains(t, ProfileNames(), p.Name, "ProfileNames lists the built-in profiles")
}

func FuzzParseProfile(f *testing.F) {
	for _, p := range Profiles() {
		f.Add(p.MarshalFile())
	}
	files, _ := filepath.Glob("testdata/profiles/*/*.json")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProfile("fuzz", data)
		if err != nil {
			var pe *ProfileError
			if !errors.As(err, &pe) {
				t.Fatalf("%v is not a *ProfileError", err)
			}
			return
		}
		q, err := ParseProfile("fuzz", p.MarshalFile())
		if err != nil {
			t.Fatalf("a profile read does not read again when written: %v", err)
		}
		if !assert.ObjectsAreEqual(p, q) {
			t.Fatalf("written and read again, %+v became %+v", p, q)
		}
	})
}
