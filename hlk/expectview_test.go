package hlk

import (
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An expectation on a buffer view reads and compares that view's bytes
// only: bytes outside it decide nothing (before, `expect reference B[o+n]`
// compared all of B), and `expect bytes` costs what it reads (before, it
// read the whole resource: 5.3 GB for a check on a 5 GiB buffer).
func TestExpectationsKeepToTheirView(t *testing.T) {
	p, _ := hwmodel.LookupProfile("discrete")
	const src = `buffer SRC 4096 in upload
write SRC 0 fill 0x5a 4096
buffer MID 4096
buffer DST 8192
queue Q DIRECT
list L DIRECT flags ALLOW_EXTENDED_ASYNC
  copy-buffer MID 0 SRC 0 4096
  copy-buffer DST 0 MID 0 4096
end
execute Q L
expect hazard read-after-write on MID
expect reference DST[4096+4096]
`
	sc, err := scenario.Parse("t.ebs", src, nil)
	require.NoError(t, err)
	r := Run(Reference, sc[0], p, "")
	assert.Equal(t, Pass, r.Status, "%v", r.Failures)

	// The first half, which the racing copy wrote wrong, does decide.
	sc, err = scenario.Parse("t.ebs", src+"expect reference DST[0+4096]\n", nil)
	require.NoError(t, err)
	r = Run(Reference, sc[0], p, "")
	assert.Equal(t, Fail, r.Status)

	sc, err = scenario.Parse("t.ebs", "buffer B 1GiB in upload\nwrite B 0 01020304\nexpect bytes B[0+4] = 01020304\n", nil)
	require.NoError(t, err)
	bytes := allocated(func() { r = Run(Reference, sc[0], p, "") })
	assert.Equal(t, Pass, r.Status, "%v", r.Failures)
	assert.Less(t, bytes, uint64(64<<20), "checking 4 bytes of a 1 GiB buffer")
}
