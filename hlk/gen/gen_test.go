package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A footprint copy and its way back name the bytes they started with, so
// a later copy of the same bytes is seen to change nothing (and its race
// to be invisible): the generator once dropped the barrier before such a
// copy and expected the judge to notice (seeds 801-3800 with 3D textures).
func TestFootprintRoundTripKeepsItsName(t *testing.T) {
	g := &generator{shapeOf: map[uint64]string{}}
	up := uint64(1<<62 | 4)
	tex := g.rowsOf("color", up)
	g.shapeOf[tex] = "color"
	assert.NotEqual(t, up, tex, "a texture holds the rows of the segment, not the segment")
	back := g.rowsOf("buffer", tex)
	assert.Equal(t, tex, g.rowsOf("color", back), "texture -> buffer -> texture of one shape")
	assert.Equal(t, tex, g.rowsOf("color", up), "the same upload again")
	assert.NotEqual(t, tex, g.rowsOf("vol", back), "another shape takes other bytes of the buffer")
	assert.NotEqual(t, g.rowsOf("video/0", up), g.rowsOf("video/1", up), "luma and chroma take other rows")

	// A segment's rows copied into a texture and back change no byte of it.
	seg := &declared{name: "B", kind: "buffer"}
	frame := &declared{name: "T", kind: "color"}
	su, tu := &unit{res: seg, ver: 7}, &unit{res: frame, ver: 9}
	seg.units, frame.units = []*unit{su}, []*unit{tu}
	copyOp := &operations[opIndex("copy-buffer-to-texture %s X")]
	g.contents(copyOp, []slotView{{res: frame, units: frame.units}, {res: seg, units: seg.units}})
	tu.ver = tu.next
	backOp := &operations[opIndex("copy-texture-to-buffer")]
	g.contents(backOp, []slotView{{res: seg, units: seg.units}, {res: frame, units: frame.units}})
	assert.Equal(t, su.ver, su.next, "buffer -> texture -> the same buffer")
}

// Every rule table has refused cells, and each expects its rule's
// message on the member the table names.
func TestRefusedCells(t *testing.T) {
	n := map[string]int{}
	for _, c := range refusedCells() {
		n[c.table]++
		assert.Regexp(t, `^INCOMPATIBLE_BARRIER_(ACCESS|SYNC|LAYOUT) field (AccessBefore|SyncBefore|LayoutBefore)$`, c.expect, c.title)
		assert.Contains(t, c.barrier, "sync ", c.title)
	}
	for _, table := range []string{"layout-access", "access-sync", "queue-layouts", "queue-accesses", "queue-syncs"} {
		assert.Positive(t, n[table], table)
	}
}
