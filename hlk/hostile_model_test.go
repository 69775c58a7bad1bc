package hlk

import (
	"fmt"
	"os"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostileModel: each file of testdata/hostile/model is one class of
// work that took the model gigabytes (issue 32), run on discrete with the
// reference driver: each ends as it should within a bound on what it
// allocates, measured (time follows: hwmodel's benchmarks time them).
func TestHostileModel(t *testing.T) {
	fsys := os.DirFS("testdata/hostile/model")
	p, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	cases := []struct {
		file   string
		status Status
		what   string // in the failures, if any
		bound  uint64 // bytes the run may allocate
	}{
		// 512 KiB read and written 400 times: with every record kept, 1.1 GB.
		{"uav-chain.ebs", Pass, "", 64 << 20},
		{"big-dispatch.ebs", Fail, fmt.Sprintf("EBREF_OUT_OF_MEMORY: DISPATCH reads %d bytes and writes %d, which asks %d bytes of the host's memory",
			2<<30, 2<<30, (2<<30)*(hwmodel.HostBytesPerRead+hwmodel.HostBytesPerWrite)), 32 << 20},
		// 4 GiB of texels: its metadata (32 MiB) is written, the texels not.
		{"big-texture.ebs", Pass, "", 256 << 20},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			scs, err := scenario.LoadFile(fsys, c.file)
			require.NoError(t, err)
			require.Len(t, scs, 1)
			var r Result
			n := allocated(func() { r = Run(Reference, scs[0], p, "") })
			require.Equal(t, c.status, r.Status, "%v", r.Failures)
			if c.what != "" {
				assert.Contains(t, fmt.Sprint(r.Failures), c.what)
			}
			t.Logf("%s: %.1f MB allocated", c.file, float64(n)/1e6)
			assert.Less(t, n, c.bound, "%s allocated %d bytes", c.file, n)
		})
	}
}
