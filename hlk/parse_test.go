package hlk

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseOne(t *testing.T, src string) *scenario.Scenario {
	t.Helper()
	cases, err := scenario.Parse("t.ebs", src, nil)
	require.NoError(t, err)
	require.Len(t, cases, 1)
	return cases[0]
}

func TestParseEverything(t *testing.T) {
	sc := parseOne(t, `
# a comment
profiles discrete unified3d
require compression
debug
heap H default 1MiB
buffer B 64KiB flags UNORDERED_ACCESS in upload
texture T 64x32 format D32_FLOAT mips 2 array 3 samples 1 flags DEPTH_STENCIL layout DEPTH_STENCIL_WRITE at H 0x10000
texture V 8x8x4 flags UNORDERED_ACCESS
queue Q DIRECT
fence F
list L DIRECT
  draw rt T ds-write T vb B[0+64] ib B[64+16] ps-srv T@3
  barrier texture T sync DEPTH_STENCIL -> PIXEL_SHADING|COMPUTE_SHADING access DEPTH_STENCIL_WRITE -> SHADER_RESOURCE \
      layout DEPTH_STENCIL_WRITE -> DIRECT_QUEUE_SHADER_RESOURCE subresources mips 0..1 slices 1+2 flags 0x0
  call
    buffer B sync COPY -> COPY access COPY_DEST -> COPY_SOURCE
    global sync ALL -> ALL access COMMON -> COMMON
    ranged B range 8+8 flags ATOMIC_COPY|ACQUIRE
  end
  copy-texture T@0 1 2 3 T@1 box 0 0 0 4 4 1
  atomic-copy B 0 B 8 64
end
execute Q L
signal Q F 1
wait Q F 1
write B 16 01 02 0304
expect reference B T
expect bytes B[16+4] = 01020304
expect hazard missing-flush on B
expect error 1334 in L field LayoutBefore
expect warning RESOURCE_BARRIER_ZERO_BARRIERS
expect packets in L WAIT <= 2
expect cost cycles < 100000
`)
	assert.Equal(t, []string{"discrete", "unified3d"}, sc.Profiles)
	assert.Equal(t, []string{"compression"}, sc.Requires)
	assert.True(t, sc.Debug)
	require.Len(t, sc.Steps, 11)
	b := sc.Steps[1].(*scenario.ResourceStep)
	assert.Equal(t, uint64(64<<10), b.Desc.Width)
	assert.Equal(t, resource.HeapUpload, b.Kind)
	tx := sc.Steps[2].(*scenario.ResourceStep)
	assert.Equal(t, "H", tx.Heap)
	assert.Equal(t, uint64(0x10000), tx.Offset)
	assert.Equal(t, ddi.FormatD32Float, tx.Desc.Format)
	assert.Equal(t, uint16(3), tx.Desc.DepthOrArraySize)
	v := sc.Steps[3].(*scenario.ResourceStep)
	assert.Equal(t, ddi.ResourceTypeTexture3D, v.Desc.ResourceType)
	l := sc.Steps[6].(*scenario.ListStep)
	require.Len(t, l.Cmds, 5)
	assert.Equal(t, "draw", l.Cmds[0].Op)
	assert.True(t, l.Cmds[0].Views["vb"][0].HasRange)
	assert.Equal(t, uint32(3), l.Cmds[0].Views["ps-srv"][0].Sub)
	bar := l.Cmds[1].Barriers[0]
	assert.Equal(t, ddi.SyncPixelShading|ddi.SyncComputeShading, bar.Barrier.Texture().SyncAfter)
	assert.Equal(t, [2]uint32{0, 2}, bar.Sub.Mips)
	assert.Equal(t, [2]uint32{1, 2}, bar.Sub.Slices)
	assert.False(t, bar.Sub.HasPlanes)
	require.Len(t, l.Cmds[2].Barriers, 3)
	assert.Equal(t, ddi.Range{Begin: 8, End: 16}, l.Cmds[2].Barriers[2].Barrier.Ranged().Range)
	assert.Equal(t, &[6]uint32{0, 0, 0, 4, 4, 1}, boxArray(l.Cmds[3]))
	assert.True(t, l.Cmds[4].Flag)
	w := sc.Steps[10].(*scenario.WriteStep)
	assert.Equal(t, []byte{1, 2, 3, 4}, w.Data)
	require.Len(t, sc.Expects, 7)
	assert.Equal(t, "<=", sc.Expects[5].Cmp)
}

func boxArray(c scenario.Cmd) *[6]uint32 {
	b := c.Box
	return &[6]uint32{b.Left, b.Top, b.Front, b.Right, b.Bottom, b.Back}
}

func TestParseSectionsParamsIncludes(t *testing.T) {
	files := map[string]string{
		"dir/common.ebs": "buffer B 4096\n",
		"dir/main.ebs": `include "common.ebs"
queue Q DIRECT
scenario "one"
param X A B
param Y 1 2 3
list L ${X}
  dispatch uav B[${Y}+4]
end
scenario "two"
list L COPY
end
`,
	}
	_, err := scenario.Parse("dir/main.ebs", files["dir/main.ebs"], func(p string) (string, error) {
		s, ok := files[p]
		if !ok {
			return "", errors.New("no such file")
		}
		return s, nil
	})
	require.Error(t, err, "X=A is no list type")
	assert.Contains(t, err.Error(), "dir/main.ebs:6:8")

	files["dir/main.ebs"] = strings.Replace(files["dir/main.ebs"], "param X A B", "param X DIRECT COMPUTE", 1)
	cases, err := scenario.Parse("dir/main.ebs", files["dir/main.ebs"], func(p string) (string, error) { return files[p], nil })
	require.NoError(t, err)
	require.Len(t, cases, 7)
	assert.Equal(t, "dir/main.ebs: one [X=DIRECT Y=1]", cases[0].Name())
	assert.Equal(t, "dir/main.ebs: one [X=COMPUTE Y=3]", cases[5].Name())
	assert.Equal(t, "dir/main.ebs: two", cases[6].Name())
	assert.Len(t, cases[0].Steps, 3, "the included buffer, the queue, the list")
	assert.Equal(t, uint64(3), cases[5].Steps[2].(*scenario.ListStep).Cmds[0].Views["uav"][0].Offset)
}

// Every parse error names the file, line and column and what was
// expected there.
// TestParseRangedBarriersOfBothVersions: a 0094 ranged barrier names one
// subresource (0 unless written, `all` for every one), a 0088 one its syncs,
// accesses and subresource range, and a call says which entry point it uses.
func TestParseRangedBarriersOfBothVersions(t *testing.T) {
	sc := parseOne(t, `
buffer B 4096
list L DIRECT
  barrier ranged B range 8+8 flags ATOMIC_COPY|RELEASE
  barrier ranged NULL flags ATOMIC_COPY subresource all
  barrier-0088 ranged B sync COPY -> ALL access COPY_DEST -> COMMON flags ATOMIC_COPY subresources 0 range 0+64
  call-0088
    buffer B sync COPY -> COPY access COPY_DEST -> COPY_SOURCE
    ranged NULL sync ALL -> ALL access COMMON -> COMMON flags ATOMIC_COPY
  end
end`)
	l := sc.Steps[1].(*scenario.ListStep)
	require.Len(t, l.Cmds, 4)
	r := l.Cmds[0].Barriers[0].Barrier.Ranged()
	assert.Equal(t, ddi.RangedBarrier{Flags: ddi.RangedBarrierFlagAtomicCopy | ddi.RangedBarrierFlagRelease, Range: ddi.Range{Begin: 8, End: 16}}, *r)
	assert.False(t, l.Cmds[0].DDI0088)
	n := l.Cmds[1].Barriers[0]
	assert.True(t, n.Res.IsRaw)
	assert.Equal(t, uint32(ddi.AllSubresourcesIndex), n.Barrier.Ranged().Subresource)
	c := l.Cmds[2]
	assert.True(t, c.DDI0088)
	assert.Equal(t, ddi.GlobalBarrier{SyncBefore: ddi.SyncCopy, SyncAfter: ddi.SyncAll, AccessBefore: ddi.AccessCopyDest, AccessAfter: ddi.AccessCommon},
		c.Barriers[0].Ranged0088.GlobalBarrier)
	assert.Equal(t, ddi.Range{Begin: 0, End: 64}, c.Barriers[0].Ranged0088.Range)
	require.NotNil(t, c.Barriers[0].Sub)
	assert.True(t, l.Cmds[3].DDI0088)
	require.Len(t, l.Cmds[3].Barriers, 2)
	assert.Equal(t, ddi.BarrierTypeBuffer, l.Cmds[3].Barriers[0].Barrier.Type)
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, where, what string }{
		{"bogus 1", "t.ebs:1:1", "unknown statement bogus"},
		{"buffer B", "t.ebs:1:9", "expected the buffer's size in bytes, found end of line"},
		{"buffer B 12Q", "t.ebs:1:10", "expected a number"},
		{"texture T 4x", "t.ebs:1:11", "expected a texture size"},
		{"texture T 4x4 format NOPE", "t.ebs:1:22", "expected a DXGI format"},
		{"texture T 4x4 colour red", "t.ebs:1:15", "unknown texture option colour"},
		{"buffer B 4\nbuffer B 4", "t.ebs:2:8", "B is already declared as a resource"},
		{"queue Q BUNDLE", "t.ebs:1:1", "there are no bundle queues"},
		{"queue Q SIDEWAYS", "t.ebs:1:9", "expected a command list type"},
		{"execute Q L", "t.ebs:1:9", "no queue is named Q"},
		{"buffer B 4\nlist L DIRECT\n  dispatch uav X\nend", "t.ebs:3:16", "no resource is named X"},
		{"buffer B 4\nlist L DIRECT\n  dispatch uav\nend", "t.ebs:3:15", "uav needs at least one resource"},
		{"list L DIRECT\n  barrier texture", "t.ebs:2:18", "expected a resource name, found end of line"},
		{"buffer B 4\nlist L DIRECT\n  barrier buffer B sync COPY COPY\nend", "t.ebs:3:30", `expected "->"`},
		{"buffer B 4\nlist L DIRECT\n  barrier buffer B sync COPY -> BANANA\nend", "t.ebs:3:33", "expected a sync scope"},
		{"buffer B 4\nlist L DIRECT\n  barrier buffer B layout COMMON -> COMMON\nend", "t.ebs:3:20", "unknown buffer barrier member layout"},
		{"buffer B 4\nlist L DIRECT\n  barrier buffer B sync COPY -> COPY sync COPY -> COPY\nend", "t.ebs:3:38", "sync is given twice"},
		{"list L DIRECT\n  fly\nend", "t.ebs:2:3", "unknown command fly"},
		{"list L DIRECT\n", "t.ebs:1:1", "list L without end"},
		{"list L DIRECT\n  call\n", "t.ebs:2:3", "call without end"},
		{"reset L\nend", "t.ebs:1:7", "no list is named L"},
		{"buffer B 4 state RENDER_TARGET layout COMMON", "t.ebs:1:32", "a resource has a layout or a legacy state, not both"},
		{"texture T 4x4 layout COMMON state COMMON", "t.ebs:1:29", "a resource has a layout or a legacy state, not both"},
		{"texture T 4x4 state INDEX_BUFFER", "t.ebs:1:21", "a texture cannot be created in it: resource state INDEX_BUFFER (0x2): a texture has no layout for buffer-only states"},
		{"buffer B 4 state COPY_DEST|COPY_SOURCE", "t.ebs:1:18", "a buffer cannot be created in it: resource state COPY_DEST|COPY_SOURCE (0xc00): a write state"},
		{"buffer B 4 state 0x100000000", "t.ebs:1:18", "4294967296 does not fit resource states"},
		{"buffer B 4 flags 0x100000000", "t.ebs:1:18", "4294967296 does not fit resource flags"},
		{"buffer B 4\nlist L DIRECT\n  barrier buffer B sync 0x100000000 -> COPY\nend", "t.ebs:3:25", "4294967296 does not fit a sync scope"},
		{"buffer B 4 state BANANA", "t.ebs:1:18", "expected resource states (e.g. RENDER_TARGET, GENERIC_READ, COPY_SOURCE|NON_PIXEL_SHADER_RESOURCE)"},
		{"buffer B 4\nlist L DIRECT\n  resource-barrier flip B\nend", "t.ebs:3:20", "unknown resource barrier type flip: expected transition, uav or aliasing"},
		{"buffer B 4\nlist L DIRECT\n  resource-barrier transition X COMMON -> COPY_DEST\nend", "t.ebs:3:31", "no resource is named X"},
		{"buffer B 4\nlist L DIRECT\n  resource-barrier transition B COMMON COPY_DEST\nend", "t.ebs:3:40", `expected "->"`},
		{"buffer B 4\nlist L DIRECT\n  resource-barrier transition B COMMON -> COPY_DEST begin end\nend", "t.ebs:3:59", `expected subresource N, begin or end (once), found "end"`},
		{"buffer B 4\nlist L DIRECT\n  resource-barrier transition B COMMON -> COPY_DEST subresource 4294967296\nend", "t.ebs:3:65", "4294967296 does not fit a subresource index"},
		{"buffer B 4\nlist L DIRECT\n  resource-barrier uav B B\nend", "t.ebs:3:26", "expected end of line"},
		{"buffer B 4\nlist L DIRECT\n  resource-barrier aliasing B\nend", "t.ebs:3:30", "expected a resource name or NULL, found end of line"},
		{"buffer B 4\nlist L DIRECT\n  resource-barriers\n    uav B\n", "t.ebs:3:3", "resource-barriers without end"},
		{"buffer B 4\nlist L DIRECT\n  resource-barriers\n    global sync ALL -> ALL\n  end\nend", "t.ebs:4:5", "unknown resource barrier type global"},
		{"buffer L 4\nreset L\nend", "t.ebs:2:7", "L is a resource, not a list"},
		{"list L DIRECT\nend\nreset L\n", "t.ebs:3:1", "reset L without end"},
		{"list L DIRECT\nend\nreset L DIRECT\nend", "t.ebs:3:9", "expected end of line"},
		{"list L DIRECT\nend\nreset L\n  fly\nend", "t.ebs:4:3", "unknown command fly"},
		{"list L DIRECT\n  call-0088\n", "t.ebs:2:3", "call-0088 without end"},
		{"buffer B 4\nlist L DIRECT\n  barrier ranged B sync COPY -> COPY\nend", "t.ebs:3:20", "unknown ranged barrier member sync: expected range, flags, subresource"},
		{"buffer B 4\nlist L DIRECT\n  barrier ranged B subresources all\nend", "t.ebs:3:20", "unknown ranged barrier member subresources"},
		{"buffer B 4\nlist L DIRECT\n  barrier-0088 ranged B subresource 0\nend", "t.ebs:3:25", "unknown ranged barrier member subresource: expected sync, access, flags, subresources, range"},
		{"buffer B 4\nlist L DIRECT\n  barrier ranged B subresource 4294967296\nend", "t.ebs:3:32", "4294967296 does not fit a subresource index or all"},
		{"end", "t.ebs:1:1", "end without a list or call"},
		{"expect bytes", "t.ebs:1:13", "expected a resource name"},
		{"expect error 1334 text", "t.ebs:1:23", "expected the text the message contains, quoted, found end of line"},
		{"expect error 1334 text BARE", "t.ebs:1:24", `expected the text the message contains, quoted, found "BARE"`},
		{"expect error 1334 colour red", "t.ebs:1:19", `unexpected colour: expected in LIST, field NAME, count N or text "..."`},
		{"buffer B 4\nexpect bytes B[0+2] = zz", "t.ebs:2:23", "expected hex bytes"},
		{"expect hazard bad-thing", "t.ebs:1:15", "hazard"},
		{"expect error NOT_A_MESSAGE", "t.ebs:1:14", "no message NOT_A_MESSAGE"},
		{"expect packets JUMP == 1", "t.ebs:1:16", "no opcode JUMP"},
		{"expect cost speed == 1", "t.ebs:1:13", "no cost metric speed"},
		{"expect packets WAIT ~ 1", "t.ebs:1:21", "unexpected character"},
		{"profiles fast", "t.ebs:1:10", "no profile fast"},
		{"require magic", "t.ebs:1:9", "no feature magic"},
		{"scenario title", "t.ebs:1:10", "expected a scenario title in quotes"},
		{`buffer B 4 "unterminated`, "t.ebs:1:12", "unterminated string"},
		{"param X 1 2\nbuffer B 4", "t.ebs:1:1", "param X is never used"},
		{"buffer B ${NOPE}", "t.ebs:1:10", "names no parameter"},
		{`include "x.ebs"`, "t.ebs:1:1", "include is not available"},
		{"buffer B 4\nlist L DIRECT\n  barrier texture B subresources mips 3..1\nend", "t.ebs:3:40", "backwards"},
		{"buffer end 4", "t.ebs:1:8", "end is a keyword"},
	}
	for _, c := range cases {
		_, err := scenario.Parse("t.ebs", c.src, nil)
		var pe *scenario.ParseError
		if !assert.True(t, errors.As(err, &pe), "%q: want a ParseError, got %v", c.src, err) {
			continue
		}
		assert.Equal(t, c.where, pe.Pos.String(), "%q: %s", c.src, err)
		assert.Contains(t, pe.Msg, c.what, "%q", c.src)
	}
}

// An include cycle ends in an error, not a hang.
func TestIncludeCycle(t *testing.T) {
	_, err := scenario.Parse("a.ebs", `include "a.ebs"`, func(string) (string, error) { return `include "a.ebs"`, nil })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nest deeper")
}

// FuzzParse: any text parses or fails with a *ParseError whose position is
// inside the text; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range suiteSeeds() {
		f.Add(s)
	}
	f.Add("buffer B 4\nlist L DIRECT\n  barrier buffer B sync COPY -> COPY\nend\n")
	f.Add("param X a b\nscenario \"s\"\nbuffer ${X} 4\n")
	f.Fuzz(func(t *testing.T, src string) {
		_, err := scenario.Parse("f.ebs", src, func(string) (string, error) { return "buffer INC 4\n", nil })
		if err == nil {
			return
		}
		var pe *scenario.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("not a *ParseError: %v", err)
		}
		lines := strings.Count(src, "\n") + 1
		if pe.Pos.Line < 1 || pe.Pos.Line > lines || pe.Pos.Col < 1 {
			t.Fatalf("position %s outside the %d-line input: %v", pe.Pos, lines, err)
		}
	})
}

// suiteSeeds are the shipped suite files, as fuzz seeds.
func suiteSeeds() []string {
	var out []string
	suites, _ := LoadSuites(suitesFS, "suites")
	for _, s := range suites {
		for _, src := range s.Files {
			out = append(out, src)
		}
	}
	return out
}

func TestParamExplosionIsRefused(t *testing.T) {
	src := "param A 1 2 3 4 5 6 7 8\nparam B 1 2 3 4 5 6 7 8\nparam C 1 2 3 4 5 6 7 8\nparam D 1 2 3 4 5 6 7 8\nparam E 1 2\n" +
		"buffer X${A}${B}${C}${D}${E} 4\n"
	_, err := scenario.Parse("t.ebs", src, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "t.ebs:5:1: the parameters make more than 4096 cases")
}

// FuzzRun runs what parses (small resources only, one profile): whatever
// the scenario does, the driver and the harness report, never panic.
func FuzzRun(f *testing.F) {
	// Small seeds, one scenario each, so the fuzzer explores instead of
	// spending its budget minimizing whole suite files.
	for _, s := range smallSeeds(48, 600) {
		f.Add(s)
	}
	prof, err := hwmodel.LookupProfile("discrete")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cases, err := scenario.Parse("f.ebs", src, func(string) (string, error) { return "", errors.New("no includes") })
		if err != nil {
			return
		}
		for i, sc := range cases {
			if i == 4 || !small(sc) {
				return
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				Run(Reference, sc, prof, "")
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("case %d took over 5 s:\n%s", i, src)
			}
		}
	})
}

// smallSeeds cuts the shipped suite files into their scenarios (with the
// file's setup lines) and keeps up to n of at most size bytes.
func smallSeeds(n, size int) []string {
	var out []string
	for _, file := range suiteSeeds() {
		parts := strings.Split(file, "\nscenario ")
		for _, part := range parts[1:] {
			seed := "scenario " + part
			if len(seed) <= size && !strings.Contains(seed, "include") {
				out = append(out, seed)
			}
			if len(out) == n {
				return out
			}
		}
	}
	return out
}

// small says whether a case's resources and writes are small enough to
// run quickly.
func small(sc *scenario.Scenario) bool {
	for _, st := range sc.Steps {
		switch s := st.(type) {
		case *scenario.HeapStep:
			if s.Size > 1<<24 {
				return false
			}
		case *scenario.ResourceStep:
			d := s.Desc
			if d.Width*uint64(max(d.Height, 1))*uint64(max(d.DepthOrArraySize, 1)) > 1<<22 || d.MipLevels > 16 || d.SampleDesc.Count > 16 {
				return false
			}
		case *scenario.WriteStep:
			if s.Size() > 1<<20 {
				return false
			}
		}
	}
	return true
}

// TestParseHeaderNoneSpellings: the header's spellings of every barrier
// enum's zero parse where the language takes enum names (issue 34, item 6).
func TestParseHeaderNoneSpellings(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", `
texture T 32x32 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET
buffer B 4096
list L DIRECT
  barrier texture T sync D3D12DDI_BARRIER_SYNC_NONE -> PIXEL_SHADING access D3D12DDI_BARRIER_ACCESS_NO_ACCESS -> SHADER_RESOURCE layout RENDER_TARGET -> SHADER_RESOURCE flags D3D12DDI_TEXTURE_BARRIER_FLAG_NONE
  barrier ranged B range 0+8 flags D3D12DDI_RANGED_BARRIER_FLAG_NONE|ATOMIC_COPY
  barrier buffer B sync D3D12_BARRIER_SYNC_NONE -> COPY access D3D12DDI_BARRIER_ACCESS_NO_ACCESS -> COPY_SOURCE
end
`, nil)
	require.NoError(t, err)
	require.Len(t, sc, 1)
}

// TestParsePredication: the forms applications write: a buffer, offset and
// operation (EQUAL_ZERO by default, the header's spellings too), and NULL,
// which ends predication and needs no offset.
func TestParsePredication(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", "buffer B 64\nlist L DIRECT\n  predication B 8 D3D12_PREDICATION_OP_NOT_EQUAL_ZERO\n"+
		"  predication B 16\n  predication NULL\n  predication NULL 0 EQUAL_ZERO\nend\n", nil)
	require.NoError(t, err)
	cmds := sc[0].Steps[1].(*scenario.ListStep).Cmds
	require.Len(t, cmds, 4)
	assert.Equal(t, []uint64{8}, cmds[0].Args)
	assert.Equal(t, uint64(ddi.PredicationOpNotEqualZero), cmds[0].Op2)
	assert.Equal(t, []uint64{16}, cmds[1].Args)
	assert.Equal(t, uint64(ddi.PredicationOpEqualZero), cmds[1].Op2)
	for _, c := range cmds[2:] {
		v := c.Views["0"][0]
		assert.True(t, v.IsRaw && v.Raw == 0, "NULL")
		assert.Equal(t, []uint64{0}, c.Args)
	}
}
