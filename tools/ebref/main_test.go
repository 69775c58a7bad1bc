package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ebref runs the CLI in-process and returns exit status, stdout and stderr.
func ebref(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(&env{bytes.NewReader(stdin), &out, &errb}, args)
	return code, out.String(), errb.String()
}

func TestUsage(t *testing.T) {
	code, _, stderr := ebref(t, nil)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "usage: ebref COMMAND")

	code, stdout, _ := ebref(t, nil, "--help")
	assert.Equal(t, 0, code)
	for _, c := range commands {
		assert.Contains(t, stdout, c.name)
	}

	code, stdout, _ = ebref(t, nil, "--version")
	assert.Equal(t, 0, code)
	assert.Regexp(t, `^ebref \S+ \(build (exe|embedded)-sha256:[0-9a-f]{16}, go1\.`, stdout)

	code, _, stderr = ebref(t, nil, "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unknown command "frobnicate"`)

	for _, c := range commands {
		code, stdout, stderr := ebref(t, nil, c.name, "--help")
		assert.Equal(t, 0, code, c.name)
		assert.Contains(t, stdout, "usage: ebref "+c.name, c.name)
		assert.Empty(t, stderr, c.name)

		code, _, stderr = ebref(t, nil, c.name, "--no-such-flag")
		assert.Equal(t, 2, code, c.name)
		assert.Contains(t, stderr, "flag provided but not defined: -no-such-flag", c.name)
	}
}

func TestRules(t *testing.T) {
	code, stdout, _ := ebref(t, nil, "rules")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "Umbrella sync scopes")
	assert.Contains(t, stdout, "docs/errata.md")

	code, stdout, _ = ebref(t, nil, "rules", "--json")
	require.Equal(t, 0, code)
	var doc ddi.RulesDocument
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Equal(t, []string{"ALL", "DRAW", "VERTEX_SHADING", "ALL_SHADING"}, doc.AccessSyncs["VERTEX_BUFFER"],
		"sorted by value: ALL 0x1, DRAW 0x2, VERTEX_SHADING 0x8, ALL_SHADING 0x1000")
	assert.Equal(t, []string{"SHADER_RESOURCE", "COPY_DEST", "COPY_SOURCE", "NO_ACCESS"}, doc.LayoutAccesses["COMMON"])
	require.Contains(t, doc.LegacyStates, "RENDER_TARGET")
	assert.Equal(t, "RENDER_TARGET", *doc.LegacyStates["RENDER_TARGET"].Layout)
	assert.Nil(t, doc.LegacyStates["INDEX_BUFFER"].Layout, "N/A prints as null")
	assert.ElementsMatch(t, []string{"DIRECT", "COMPUTE", "COPY", "VIDEO_DECODE", "VIDEO_PROCESS", "VIDEO_ENCODE"}, keys(doc.Queues))
	assert.ElementsMatch(t, []string{"ALL", "DRAW", "ALL_SHADING", "NON_PIXEL_SHADING"}, keys(doc.UmbrellaSyncs))
	assert.Contains(t, stdout, `"layout": null`)

	code, _, stderr := ebref(t, nil, "rules", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unexpected argument "extra"`)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func sample() []ddi.Barrier {
	return []ddi.Barrier{
		ddi.NewTextureBarrier(ddi.TextureBarrier{
			SyncBefore: ddi.SyncRenderTarget, SyncAfter: ddi.SyncPixelShading,
			AccessBefore: ddi.AccessRenderTarget, AccessAfter: ddi.AccessShaderResource,
			LayoutBefore: ddi.LayoutRenderTarget, LayoutAfter: ddi.LayoutDirectQueueShaderResource,
			Resource: 0x1000, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources},
		}),
		ddi.NewGlobalBarrier(ddi.GlobalBarrier{SyncBefore: ddi.SyncComputeShading, SyncAfter: ddi.SyncComputeShading,
			AccessBefore: ddi.AccessUnorderedAccess, AccessAfter: ddi.AccessUnorderedAccess}),
		ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: ddi.SyncVertexShading, SyncAfter: ddi.SyncVertexShading,
			AccessBefore: ddi.AccessStreamOutput, AccessAfter: ddi.AccessShaderResource, Resource: 0x2000}),
		ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: ddi.RangedBarrierFlagAtomicCopy | ddi.RangedBarrierFlagRelease, Resource: 0x3000,
			Subresource: 0, Range: ddi.Range{Begin: 64, End: 128}}),
	}
}

func TestDecodeFileAndStdin(t *testing.T) {
	raw := ddi.AppendEncodedBarriers(nil, sample())
	path := filepath.Join(t.TempDir(), "barriers.bin")
	require.NoError(t, os.WriteFile(path, raw, 0o644))

	want := strings.Join([]string{
		`{"index":0,"type":"TEXTURE","sync_before":"RENDER_TARGET","sync_after":"PIXEL_SHADING","access_before":"RENDER_TARGET","access_after":"SHADER_RESOURCE","layout_before":"RENDER_TARGET","layout_after":"DIRECT_QUEUE_SHADER_RESOURCE","resource":"0x0000000000001000","subresources":{"index_or_first_mip_level":4294967295,"num_mip_levels":0,"first_array_slice":0,"num_array_slices":0,"first_plane":0,"num_planes":0},"flags":"NONE"}`,
		`{"index":1,"type":"GLOBAL","sync_before":"COMPUTE_SHADING","sync_after":"COMPUTE_SHADING","access_before":"UNORDERED_ACCESS","access_after":"UNORDERED_ACCESS"}`,
		`{"index":2,"type":"BUFFER","sync_before":"VERTEX_SHADING","sync_after":"VERTEX_SHADING","access_before":"STREAM_OUTPUT","access_after":"SHADER_RESOURCE","resource":"0x0000000000002000"}`,
		`{"index":3,"type":"RANGED","flags":"ATOMIC_COPY|RELEASE","resource":"0x0000000000003000","subresource":0,"range":{"begin":64,"end":128}}`,
	}, "\n") + "\n"
	code, stdout, stderr := ebref(t, nil, "decode", path)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, want, stdout)

	code, stdout, _ = ebref(t, raw, "decode", "-")
	assert.Equal(t, 0, code)
	assert.Equal(t, want, stdout)

	code, stdout, _ = ebref(t, raw, "decode", "--text", "-")
	assert.Equal(t, 0, code)
	assert.Equal(t, strings.Join([]string{
		"[0] TEXTURE sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE resource 0x1000 subresources all flags NONE",
		"[1] GLOBAL sync COMPUTE_SHADING -> COMPUTE_SHADING access UNORDERED_ACCESS -> UNORDERED_ACCESS",
		"[2] BUFFER sync VERTEX_SHADING -> VERTEX_SHADING access STREAM_OUTPUT -> SHADER_RESOURCE resource 0x2000",
		"[3] RANGED flags ATOMIC_COPY|RELEASE resource 0x3000 subresource 0 range 0x40..0x80",
	}, "\n")+"\n", stdout)
}

// TestDecodeEBS: --ebs prints the records as a call block a scenario
// accepts, resources as raw handles; a scenario with that block in a list
// parses, and the call has the records' barriers.
func TestDecodeEBS(t *testing.T) {
	raw := ddi.AppendEncodedBarriers(nil, sample())
	code, stdout, stderr := ebref(t, raw, "decode", "--ebs", "-")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, strings.Join([]string{
		"# 4 barrier records (D3D12DDIARG_BARRIER_0094, 72 bytes each) of standard input as one Barrier call.",
		"# Resources are the records' raw handles: declare them and put their names in.",
		"call",
		"  texture 0x1000 sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> DIRECT_QUEUE_SHADER_RESOURCE subresources all # [0]",
		"  global sync COMPUTE_SHADING -> COMPUTE_SHADING access UNORDERED_ACCESS -> UNORDERED_ACCESS # [1]",
		"  buffer 0x2000 sync VERTEX_SHADING -> VERTEX_SHADING access STREAM_OUTPUT -> SHADER_RESOURCE # [2]",
		"  ranged 0x3000 subresource 0 range 64+64 flags ATOMIC_COPY|RELEASE # [3]",
		"end",
	}, "\n")+"\n", stdout)
	sc, err := scenario.Parse("t.ebs", "list L direct\n"+stdout+"end\n", nil)
	require.NoError(t, err)
	require.Len(t, sc[0].Steps[0].(*scenario.ListStep).Cmds[0].Barriers, 4)

	var bs []ddi.Barrier0088
	for _, b := range sample()[:3] {
		x, _ := b.As0088()
		bs = append(bs, x)
	}
	code, stdout, _ = ebref(t, ddi.AppendEncodedBarriers0088(nil, bs), "decode", "--ddi", "0088", "--ebs", "-")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "(D3D12DDIARG_BARRIER_0088, 80 bytes each)")
	assert.Contains(t, stdout, "\ncall-0088\n")

	code, _, stderr = ebref(t, raw, "decode", "--ebs", "--text", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "choose one")
}

// TestDecode0088: --ddi 0088 reads 80-byte records; a ranged one prints its
// syncs, accesses and subresource range, a NULL resource as zero.
func TestDecode0088(t *testing.T) {
	var bs []ddi.Barrier0088
	for _, b := range sample()[:3] {
		x, ok := b.As0088()
		require.True(t, ok)
		bs = append(bs, x)
	}
	bs = append(bs, ddi.NewRangedBarrier0088(ddi.RangedBarrier0088{
		GlobalBarrier: ddi.GlobalBarrier{SyncBefore: ddi.SyncCopy, SyncAfter: ddi.SyncAll, AccessBefore: ddi.AccessCopyDest, AccessAfter: ddi.AccessCommon},
		Flags:         ddi.RangedBarrierFlagAtomicCopy, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}}))
	raw := ddi.AppendEncodedBarriers0088(nil, bs)
	require.Len(t, raw, 4*80)
	code, stdout, stderr := ebref(t, raw, "decode", "--ddi", "0088", "-")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	require.Len(t, lines, 4)
	_, want94, _ := ebref(t, ddi.AppendEncodedBarriers(nil, sample()[:3]), "decode", "-")
	assert.Equal(t, want94, strings.Join(lines[:3], "\n")+"\n", "the first three are the 0094 records")
	assert.Equal(t, `{"index":3,"type":"RANGED","sync_before":"COPY","sync_after":"ALL","access_before":"COPY_DEST","access_after":"COMMON","flags":"ATOMIC_COPY","resource":"0x0000000000000000","subresources":{"index_or_first_mip_level":4294967295,"num_mip_levels":0,"first_array_slice":0,"num_array_slices":0,"first_plane":0,"num_planes":0},"range":{"begin":0,"end":0}}`, lines[3])

	// The same bytes read as 0094 records go wrong at once: 320 bytes are
	// four records and a bit, and the second is not a valid record.
	// Nothing of them is printed (issue 32: garbage came first), and the
	// error says which version reads them.
	code, stdout, stderr = ebref(t, raw, "decode", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "record ")
	assert.Contains(t, stderr, "the file reads whole as 0088 records: try --ddi 0088")
	assert.Empty(t, stdout)
	raw94 := ddi.AppendEncodedBarriers(nil, sample())
	code, stdout, stderr = ebref(t, raw94, "decode", "--ddi", "0088", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "try --ddi 0094")
	assert.Empty(t, stdout)

	code, _, stderr = ebref(t, raw, "decode", "--ddi", "0090", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--ddi "0090": want 0094 or 0088`)
}

func TestDecodeBadInput(t *testing.T) {
	raw := ddi.AppendEncodedBarriers(nil, sample())

	code, stdout, stderr := ebref(t, raw[:72+40], "decode", "-")
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(stdout, "\n"), "the whole first record is still printed")
	// A global barrier's members end at byte 24; the cut is in the unused
	// rest of the union.
	assert.Equal(t, "ebref decode: standard input: record 1, byte offset 96 (padding): truncated record: 40 of 72 bytes of a D3D12DDIARG_BARRIER_0094 present\n", stderr)

	code, _, stderr = ebref(t, raw[:20], "decode", "-")
	assert.Equal(t, 2, code)
	assert.Equal(t, "ebref decode: standard input: record 0, byte offset 20 (TextureBarrier.AccessAfter): truncated record: 20 of 72 bytes of a D3D12DDIARG_BARRIER_0094 present\n", stderr)

	bad := append([]byte(nil), raw...)
	bad[72] = 7 // record 1's Type
	code, _, stderr = ebref(t, bad, "decode", "-")
	assert.Equal(t, 2, code)
	assert.Equal(t, "ebref decode: standard input: record 1, byte offset 72: Type = 0x7: malformed record: not a D3D12DDI_BARRIER_TYPE value\n", stderr)

	code, _, stderr = ebref(t, nil, "decode", filepath.Join(t.TempDir(), "missing.bin"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no such file or directory")
	assert.Equal(t, 1, strings.Count(stderr, "\n"))

	code, _, stderr = ebref(t, nil, "decode", "-")
	assert.Equal(t, 0, code)
	assert.Contains(t, stderr, "no records")

	code, _, stderr = ebref(t, nil, "decode")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "want one FILE")
	code, _, _ = ebref(t, nil, "decode", "a", "b")
	assert.Equal(t, 2, code)
}

func TestCaps(t *testing.T) {
	code, stdout, _ := ebref(t, nil, "caps")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "Profile discrete")
	assert.Regexp(t, `EnhancedBarriersSupported\s+TRUE\s+the point of ebref`, stdout)
	assert.Regexp(t, `COMPUTE\s+COMMON, PRESENT, .*COMPUTE_QUEUE_COMMON`, stdout)

	code, stdout, _ = ebref(t, nil, "caps", "--profile", "coherent", "--json")
	require.Equal(t, 0, code)
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.JSONEq(t, `"coherent"`, string(doc["profile"]))

	code, stdout, _ = ebref(t, nil, "caps", "--list")
	require.Equal(t, 0, code)
	assert.Len(t, strings.Split(strings.TrimSpace(stdout), "\n"), len(hwmodel.Profiles()))

	code, _, stderr := ebref(t, nil, "caps", "--profile", "nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `no hardware profile "nope"`)
}

// The README's front door holds exactly two set-up commands: the main job,
// which works (run here in-process), and the test command, which CI runs.
func TestReadmeCommands(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	var cmds []string
	for _, block := range strings.Split(string(raw), "```sh\n")[1:] {
		cmds = append(cmds, strings.TrimSpace(strings.SplitN(block, "```", 2)[0]))
	}
	require.Len(t, cmds, 2, "the README has exactly two set-up commands")
	main, ok := strings.CutPrefix(cmds[0], "go run ./tools/ebref ")
	require.True(t, ok, "the first command runs ebref: %q", cmds[0])
	code, stdout, stderr := ebref(t, nil, strings.Fields(main)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "CONFORMANT")
	assert.Equal(t, "go test ./...", cmds[1])
	ci, err := os.ReadFile("../../.ci/run")
	require.NoError(t, err)
	assert.Contains(t, string(ci), "\n"+cmds[1]+"\n", ".ci/run runs the README's test command")
}

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestOutputThatCannotBeWrittenFails: no command reports success when its
// output was lost.
func TestOutputThatCannotBeWrittenFails(t *testing.T) {
	raw := ddi.AppendEncodedBarriers(nil, sample())
	for _, args := range [][]string{
		{"caps"}, {"rules"}, {"rules", "--json"}, {"decode", "-"}, {"hlk", "--suite", "validation", "--profile", "coherent"},
		{"run", "../../hlk/suites/barriers/global.ebs", "--profile", "coherent"},
		{"bench", "--workload", "uav-pingpong", "--profile", "coherent"}, {"bench", "--emit"},
		{"bench", "--workload", "uav-pingpong", "--profile", "coherent", "--barriers"},
	} {
		var errb bytes.Buffer
		code := run(&env{bytes.NewReader(raw), fullWriter{}, &errb}, args)
		assert.NotZero(t, code, "%v", args)
		assert.Contains(t, errb.String(), "no space left on device", "%v", args)
	}
}

// TestHostileInputs: each file of testdata/hostile gets its clear error and
// exit status, within bounded memory (time follows from the limits;
// docs/conformance.md "Limits").
func TestHostileInputs(t *testing.T) {
	dir := filepath.Join("testdata", "hostile")
	fan := filepath.Join(dir, "call-fanout.bin")
	cases := []struct {
		args []string
		code int
		what string
	}{
		{[]string{"disasm", fan, "--call", "1=" + fan}, 2, "CALLs expand to too many packets: more than 1048576"},
		{[]string{"disasm", fan, "--call", "1=" + fan, "--json"}, 2, "CALLs expand to too many packets"},
		{[]string{"hlk", "merge", filepath.Join(dir, "empty-report.json")}, 2, "not an ebref hlk report"},
		{[]string{"hlk", "merge", filepath.Join(dir, "null-report.json")}, 2, "not an ebref hlk report"},
		{[]string{"decode", filepath.Join(dir, "truncated-barrier.bin")}, 2, "truncated record: 20 of 72 bytes"},
		{[]string{"decode", "--ddi", "0088", filepath.Join(dir, "truncated-barrier.bin")}, 2, "20 of 80 bytes"},
	}
	for _, c := range cases {
		var errb bytes.Buffer
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code := run(&env{bytes.NewReader(nil), io.Discard, &errb}, c.args)
		runtime.ReadMemStats(&after)
		assert.Equal(t, c.code, code, "%v: %s", c.args, errb.String())
		assert.Contains(t, errb.String(), c.what, "%v", c.args)
		assert.Less(t, after.HeapInuse, before.HeapInuse+64<<20, "%v keeps its output streaming", c.args)
	}
}
