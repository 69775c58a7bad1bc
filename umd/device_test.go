package umd

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCacheTablesMatchTheProfile: the tables the driver builds from the
// paths agree with the profile's own CachesBetween and StaleBetween for
// every engine kind and pair of clients.
func TestCacheTablesMatchTheProfile(t *testing.T) {
	mask := func(cs []cmdbuf.Cache) (m cmdbuf.CacheMask) {
		for _, c := range cs {
			m |= c.Mask()
		}
		return m
	}
	for _, name := range hwmodel.ProfileNames() {
		p, err := hwmodel.LookupProfile(name)
		require.NoError(t, err)
		for e := hwmodel.EngineKind(0); e < hwmodel.NumEngineKinds; e++ {
			tab := newCacheTable(p, e)
			for w := cmdbuf.Client(0); w < cmdbuf.NumClients; w++ {
				assert.Equal(t, mask(p.Path(e, w)), tab.path[w])
				for r := cmdbuf.Client(0); r < cmdbuf.NumClients; r++ {
					assert.Equal(t, mask(p.CachesBetween(e, w, e, r)), tab.flush[w][r], "%s %s %s→%s", name, e, w, r)
					assert.Equal(t, mask(p.StaleBetween(e, w, e, r)), tab.inval[w][r], "%s %s %s→%s", name, e, w, r)
				}
			}
		}
	}
}
