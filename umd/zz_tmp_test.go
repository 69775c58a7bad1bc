package umd

import (
	"os"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
)

func TestZZDump(t *testing.T) {
	bb := newBarrierBench(t, "discrete")
	bb.cl.Barrier(bb.texture[0:1])
	bb.cl.Barrier(bb.texture[1:2])
	bb.cl.Barrier(bb.buffer)
	bb.cl.Barrier(bb.mixed)
	cmdbuf.WriteListing(os.Stdout, cmdbuf.Listing(bb.cl.buf, nil))
	t.Logf("%+v", bb.cl.Records())
}
