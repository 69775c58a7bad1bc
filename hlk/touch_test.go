package hlk

import (
	"context"
	"github.com/ebref/ebref/hlk/gen"
	"regexp"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// skewDriver is the reference driver with one bug in what its work
// touches: once a list is closed, skew rewrites the accesses of its WORK
// packets (the list's n-th WORK, from 0; every WORK for -1), as a driver that addresses the
// wrong bytes would have recorded them. The machine runs the rewritten
// packets, and so does the reference it is compared with.
type skewDriver struct {
	n    int
	skew func(a *cmdbuf.Access, i int)
	nop  bool // the WORK becomes a NOP: the driver emits no work for the command
}

func (d skewDriver) Name() string     { return "skewed" }
func (d skewDriver) Faults() []string { return nil }
func (d skewDriver) Open(p *hwmodel.Profile, o driver.DeviceOptions) (driver.Device, error) {
	dev, err := Reference.Open(p, o)
	return skewDevice{dev, d}, err
}

type skewDevice struct {
	driver.Device
	d skewDriver
}

func (d skewDevice) CreateCommandList(t ddi.CommandListType, f ddi.CommandListFlags) (driver.CommandList, error) {
	cl, err := d.Device.CreateCommandList(t, f)
	return skewList{cl, d.d}, err
}

func (d skewDevice) CreateQueue(t ddi.CommandListType) (driver.Queue, error) {
	q, err := d.Device.CreateQueue(t)
	return skewQueue{q}, err
}

// skewQueue submits the reference's own lists.
type skewQueue struct{ driver.Queue }

func (q skewQueue) ExecuteCommandLists(lists ...driver.CommandList) error {
	inner := make([]driver.CommandList, len(lists))
	for i, l := range lists {
		inner[i] = l.(skewList).CommandList
	}
	return q.Queue.ExecuteCommandLists(inner...)
}

type skewList struct {
	driver.CommandList
	d skewDriver
}

func (l skewList) Close() error {
	if err := l.CommandList.Close(); err != nil {
		return err
	}
	n := 0
	b := l.Buffer()
	b.Walk(func(c int, p cmdbuf.Packet, err error) error {
		if err != nil || p.Op() != cmdbuf.OpWork {
			return nil
		}
		if n++; l.d.n >= 0 && n-1 != l.d.n {
			return nil
		}
		if l.d.nop {
			b.Chunks()[c][p.Offset] = uint32(cmdbuf.MakeHeader(cmdbuf.OpNop, 0, len(p.Payload)))
			return nil
		}
		for i := 0; i < p.Work().NumAccesses; i++ {
			a := p.Access(i)
			l.d.skew(&a, i)
			// The access's dwords end at its attribute dword: address
			// (2), size (2), attributes.
			attr := p.Offset + cmdbuf.AccessAttrDword(i)
			q := b.Chunks()[c][attr-4 : attr+1]
			q[0], q[1], q[2], q[3] = uint32(a.Addr), uint32(a.Addr>>32), uint32(a.Size), uint32(a.Size>>32)
			q[4] = q[4]&^3 | uint32(a.Dir)
		}
		return nil
	})
	return nil
}

// TestTouchesCatchWrongBytes: a driver whose WORK packets read or write
// other bytes than the command names fails by safety, with the command's
// line and the first wrong byte, though the reference bytes agree (the
// reference runs the same packets); the reference driver passes.
func TestTouchesCatchWrongBytes(t *testing.T) {
	const src = `
scenario "copies and a draw"
buffer UP 65536 in upload
write UP 0 fill 0x11 65536
buffer B 8192 flags UNORDERED_ACCESS
texture T 32x32 flags RENDER_TARGET layout COMMON
texture V 8x8x4 layout COMMON
queue Q DIRECT
list L DIRECT
  copy-buffer B 256 UP 0 1024
  copy-buffer-to-texture T@0 UP 4096
  copy-texture V@0 1 1 1 T@0 box 4 4 0 8 8 1
  dispatch uav B[0+512] srv UP[0+64]
end
execute Q L
expect reference
`
	sc := parseOne(t, src)
	p := hwmodel.Profiles()[0]
	r := Run(Reference, sc, p, "")
	require.Equal(t, Pass, r.Status, "%v", r.Failures)

	for _, tc := range []struct {
		name string
		d    skewDriver
		want string
	}{
		{"a buffer copy's destination 4 bytes late", skewDriver{n: 0, skew: func(a *cmdbuf.Access, i int) {
			if a.Dir == cmdbuf.DirWrite {
				a.Addr += 4
			}
		}}, "t.ebs:10:3: copy-buffer: its WORK packets do not write B offset 256 "},
		{"a placed footprint's offset a row late", skewDriver{n: 1, skew: func(a *cmdbuf.Access, i int) {
			if a.Dir == cmdbuf.DirRead {
				a.Addr += 256
			}
		}}, "t.ebs:11:3: copy-buffer-to-texture: its WORK packets do not read UP offset 4096 "},
		{"a box's rows at the wrong pitch", skewDriver{n: 2, skew: func(a *cmdbuf.Access, i int) {
			if a.Dir == cmdbuf.DirRead {
				a.Addr += uint64(i/2) * 16
			}
		}}, "t.ebs:12:3: copy-texture: its WORK packets do not read T offset 1296 "},
		{"a box's rows written to each other's place", skewDriver{n: 2, skew: func(a *cmdbuf.Access, i int) {
			switch i {
			case 1:
				a.Addr += 256 // the first row's write where the second's goes
			case 3:
				a.Addr -= 256
			}
		}}, "t.ebs:12:3: copy-texture: its WORK packets copy T offset 1040 (address 0x100020410) to V offset 2564 (address 0x100030a04), where the command copies it to V offset 2308 "},
		{"a UAV read as a write only", skewDriver{n: 3, skew: func(a *cmdbuf.Access, i int) {
			if a.Size == 512 && a.Dir == cmdbuf.DirRead {
				a.Dir = cmdbuf.DirWrite
			}
		}}, "t.ebs:13:3: dispatch: its WORK packets do not read B offset 0 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Run(tc.d, sc, p, "")
			assert.Equal(t, Fail, r.Status)
			found := false
			for _, f := range r.Failures {
				found = found || strings.Contains(f, tc.want)
			}
			assert.True(t, found, "want %q in %v", tc.want, r.Failures)
			assert.NotZero(t, r.Counters.PacketCount(cmdbuf.OpWork), "the skewed packets ran")
			for _, e := range r.Expectations {
				assert.True(t, e.OK, "the reference bytes agree: %s %s", e.Text, e.Detail)
			}
			for _, f := range r.Failures {
				assert.Contains(t, f, "its WORK packets", "no other failure")
			}
		})
	}
}

// TestTouchesDiscardMayDoNothing: a discard's contents become undefined,
// so a driver may emit no work for it; any other command must have its
// WORK packets.
func TestTouchesDiscardMayDoNothing(t *testing.T) {
	sc := parseOne(t, `
scenario "a discard and a clear"
texture RT 16x16 flags RENDER_TARGET layout RENDER_TARGET
queue Q DIRECT
list L DIRECT
  discard RT
  clear-rt RT 7
end
execute Q L
expect reference
`)
	p := hwmodel.Profiles()[0]
	r := Run(skewDriver{n: 0, nop: true}, sc, p, "")
	assert.Equal(t, Pass, r.Status, "no work for the discard: %v", r.Failures)
	r = Run(skewDriver{n: 1, nop: true}, sc, p, "")
	assert.Equal(t, Fail, r.Status)
	assert.Contains(t, strings.Join(r.Failures, "\n"), "t.ebs:7:3: clear-rt: list L has no WORK packets for this command")
	r = Run(skewDriver{n: 0, skew: func(a *cmdbuf.Access, i int) { a.Size /= 2 }}, sc, p, "")
	assert.Equal(t, Pass, r.Status, "a discard of less: %v", r.Failures)
	r = Run(skewDriver{n: 0, skew: func(a *cmdbuf.Access, i int) { a.Addr += 256 }}, sc, p, "")
	assert.Regexp(t, `t\.ebs:6:3: discard: its WORK packets write address 0x[0-9a-f]+, which the command does not write`, strings.Join(r.Failures, "\n"))
}

// TestCopySegments: a copy's pairs, normalized, and the first byte two
// copies place differently.
func TestCopySegments(t *testing.T) {
	segs := normalizeSegs([]copySeg{{100, 200, 4}, {0, 50, 4}, {4, 54, 4}, {104, 300, 4}})
	assert.Equal(t, []copySeg{{0, 50, 8}, {100, 200, 4}, {104, 300, 4}}, segs)
	for _, tc := range []struct {
		want, got       []copySeg
		src, wdst, gdst uint64
		ok              bool
	}{
		{[]copySeg{{0, 50, 8}}, []copySeg{{0, 50, 8}}, 0, 0, 0, false},
		{[]copySeg{{0, 50, 8}}, []copySeg{{0, 60, 8}}, 0, 50, 60, true},
		{[]copySeg{{0, 50, 8}}, []copySeg{{0, 50, 4}, {4, 70, 4}}, 4, 54, 70, true},
		{[]copySeg{{0, 50, 4}, {4, 70, 4}}, []copySeg{{0, 50, 8}}, 4, 70, 54, true},
		{[]copySeg{{0, 50, 8}}, []copySeg{{0, 50, 8}, {0, 90, 8}}, 0, 0, 90, true},
	} {
		src, wd, gd, ok := firstMisplaced(tc.want, tc.got)
		assert.Equal(t, []any{tc.src, tc.wdst, tc.gdst, tc.ok}, []any{src, wd, gd, ok}, "%v vs %v", tc.want, tc.got)
	}
}

// TestByteSets: normalising, the first difference and inclusion.
func TestByteSets(t *testing.T) {
	s := byteSet{{10, 20}, {0, 5}, {5, 8}, {15, 30}}.normalize()
	assert.Equal(t, byteSet{{0, 8}, {10, 30}}, s)
	for _, tc := range []struct {
		a, b    byteSet
		addr    uint64
		inA, ok bool
	}{
		{byteSet{{0, 8}}, byteSet{{0, 8}}, 0, false, false},
		{byteSet{{0, 8}}, byteSet{{4, 8}}, 0, true, true},
		{byteSet{{4, 8}}, byteSet{{0, 8}}, 0, false, true},
		{byteSet{{0, 8}}, byteSet{{0, 6}}, 6, true, true},
		{byteSet{{0, 6}}, byteSet{{0, 8}}, 6, false, true},
		{byteSet{{0, 8}}, byteSet{{0, 8}, {10, 12}}, 10, false, true},
		{byteSet{{0, 8}, {9, 12}}, byteSet{{0, 8}}, 9, true, true},
	} {
		addr, inA, ok := firstDiff(tc.a, tc.b)
		assert.Equal(t, []any{tc.addr, tc.inA, tc.ok}, []any{addr, inA, ok}, "%v vs %v", tc.a, tc.b)
	}
	_, ok := subset(byteSet{{2, 4}, {10, 12}}, byteSet{{0, 5}, {9, 20}})
	assert.True(t, ok)
	addr, ok := subset(byteSet{{2, 6}}, byteSet{{0, 5}})
	assert.Equal(t, []any{uint64(5), false}, []any{addr, ok})
	addr, ok = subset(byteSet{{7, 8}}, byteSet{{0, 5}})
	assert.Equal(t, []any{uint64(7), false}, []any{addr, ok})
}

// TestTouchesCoverEveryCommand: in the write x read suite, which records
// almost every kind of work a list type offers, and three cases for the
// kinds it does not, a driver whose every access is 4
// bytes late fails every case that records work, and the failures name
// every kind of command: no command escapes the comparison.
func TestTouchesCoverEveryCommand(t *testing.T) {
	var files map[string]string
	for _, g := range gen.Tables {
		if g.Name == "write-read" {
			files = g.Files()
		}
	}
	s, err := suiteFromSources("write-read", files)
	require.NoError(t, err)
	more, err := scenario.Parse("more.ebs", `
scenario "copy-resource"
buffer A 4096
buffer B 4096
list L DIRECT
  copy-resource B A
end
scenario "copy-texture"
texture A 16x16 layout COMMON
texture B 16x16 layout COMMON
list L DIRECT
  copy-texture B@0 2 2 0 A@0 box 0 0 0 4 4 1
end
scenario "atomic-copy"
buffer A 4096
buffer B 4096
list L COMPUTE
  atomic-copy B 64 A 128 64
end
`, nil)
	require.NoError(t, err)
	late := skewDriver{n: -1, skew: func(a *cmdbuf.Access, i int) { a.Addr += 4 }}
	p := hwmodel.Profiles()[0]
	recorded, named := map[string]bool{}, map[string]bool{}
	opOf := regexp.MustCompile(`^\S+: ([a-z-]+): its WORK packets`)
	for _, sc := range append(s.Cases, more...) {
		work := false
		for _, st := range sc.Steps {
			if ls, ok := st.(*scenario.ListStep); ok {
				for _, c := range ls.Cmds {
					if c.Op != "barrier" && c.Op != "resource-barrier" {
						recorded[c.Op], work = true, true
					}
				}
			}
		}
		r := Run(late, sc, p, "")
		if !work {
			continue
		}
		caught := false
		for _, f := range r.Failures {
			if m := opOf.FindStringSubmatch(f); m != nil {
				named[m[1]], caught = true, true
			}
		}
		assert.True(t, caught, "%s: %v", sc.Name, r.Failures)
	}
	assert.Equal(t, recorded, named)
	assert.GreaterOrEqual(t, len(recorded), 20, "the suite records every kind of work: %v", recorded)
}

// TestShrinkKeepsTouches: a case that fails because its work touches
// other bytes shrinks to one that fails the same way.
func TestShrinkKeepsTouches(t *testing.T) {
	const src = `scenario "s"
buffer UP 65536 in upload
buffer B 8192 flags UNORDERED_ACCESS
buffer C 8192 flags UNORDERED_ACCESS
buffer D 8192 flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  dispatch uav C
  copy-buffer B 256 UP 0 1024
  dispatch uav D
end
execute Q L
expect reference
`
	late := skewDriver{n: -1, skew: func(a *cmdbuf.Access, i int) {
		if a.Client == cmdbuf.ClientCopy {
			a.Addr += 4 // copies only
		}
	}}
	p := hwmodel.Profiles()[0]
	out, err := Shrink(context.Background(), late, "s", src, p, "")
	require.NoError(t, err)
	assert.Less(t, len(out), len(src))
	assert.Contains(t, out, "copy-buffer B 256 UP 0 1024")
	sc := parseOne(t, out)
	r := Run(late, sc, p, "")
	require.Equal(t, Fail, r.Status)
	assert.Contains(t, strings.Join(r.Failures, "\n"), ": copy-buffer: its WORK packets")
}
