package umd

import (
	"math/rand/v2"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCacheTablesMatchTheProfile: the cache work the driver derives from
// the paths agrees with the profile's own CachesBetween and StaleBetween
// for every engine kind and pair of clients, and over sets of clients it is
// what the pairs say, combined as the translation rules combine them
// (accessCaches' comment): the union over writers and users, the readers'
// write-back caches, NO_ACCESS up to the common caches, the users' private
// caches when no writer is named, and compression work as a BLIT reader
// and writer between them.
func TestCacheTablesMatchTheProfile(t *testing.T) {
	mask := func(cs []cmdbuf.Cache) (m cmdbuf.CacheMask) {
		for _, c := range cs {
			m |= c.Mask()
		}
		return m
	}
	rng := rand.New(rand.NewPCG(7, 8))
	set := func() clientMask { return clientMask(rng.Uint32()&rng.Uint32()) & allClients }
	for _, name := range hwmodel.ProfileNames() {
		p, err := hwmodel.LookupProfile(name)
		require.NoError(t, err)
		for e := hwmodel.EngineKind(0); e < hwmodel.NumEngineKinds; e++ {
			tab := newCacheTable(p, e)
			var pair [cmdbuf.NumClients][cmdbuf.NumClients][2]cmdbuf.CacheMask
			for w := cmdbuf.Client(0); w < cmdbuf.NumClients; w++ {
				assert.Equal(t, mask(p.Path(e, w)), tab.path[w])
				for r := cmdbuf.Client(0); r < cmdbuf.NumClients; r++ {
					pair[w][r] = [2]cmdbuf.CacheMask{mask(p.CachesBetween(e, w, e, r)), mask(p.StaleBetween(e, w, e, r))}
					flush, inval := tab.between(clients(w), clients(r))
					assert.Equal(t, pair[w][r][0], flush, "%s %s %s→%s", name, e, w, r)
					assert.Equal(t, pair[w][r][1], inval, "%s %s %s→%s", name, e, w, r)
				}
			}
			// written: the caches on the path of every client that writes
			// (an access's writer, or the compression unit), from the
			// profile.
			written := ^cmdbuf.CacheMask(0)
			for _, r := range accessClients {
				if r.access&ddi.WriteAccesses != 0 {
					for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
						if r.clients.has(c) {
							written &= mask(p.Path(e, c))
						}
					}
				}
			}
			written &= mask(p.Path(e, cmdbuf.ClientBlit))
			assert.Equal(t, written, tab.written, "%s %s", name, e)
			// pairs is the union of the pairs' work; toMem the writers'
			// caches short of those every writer shares.
			pairs := func(ws, us clientMask) (flush, inval, toMem cmdbuf.CacheMask) {
				for w := cmdbuf.Client(0); w < cmdbuf.NumClients; w++ {
					if !ws.has(w) {
						continue
					}
					toMem |= tab.path[w] &^ written
					for r := cmdbuf.Client(0); r < cmdbuf.NumClients; r++ {
						if us.has(r) {
							flush, inval = flush|pair[w][r][0], inval|pair[w][r][1]
						}
					}
				}
				return flush, inval, toMem
			}
			blit := clients(cmdbuf.ClientBlit)
			for range 500 {
				ws, rs, us, cs := set(), set(), set(), set()
				flush, inval, _ := pairs(ws, us)
				f, i := tab.between(ws, us)
				assert.Equal(t, [2]cmdbuf.CacheMask{flush, inval}, [2]cmdbuf.CacheMask{f, i}, "%s %s writers %#x users %#x", name, e, ws, us)

				for _, toMem := range []bool{false, true} {
					for _, work := range []bool{false, true} {
						us := us
						if toMem {
							us = 0
						}
						flush, inval, toMemFlush := pairs(ws, us)
						rf, _, rToMem := pairs(rs, us)
						if toMem {
							flush, rf = toMemFlush, rToMem
						}
						flush |= rf & tab.writeBack
						if ws == 0 {
							for u := cmdbuf.Client(0); u < cmdbuf.NumClients; u++ {
								if us.has(u) {
									inval |= tab.path[u] &^ written
								}
							}
						}
						var post cmdbuf.CacheMask
						if work {
							f, i, _ := pairs(ws, blit)
							flush, inval = flush|f, inval|i
							f, i, toMemPost := pairs(blit, us)
							post, inval = f, inval|i
							if toMem {
								post = toMemPost
							}
							_, i, _ = pairs(blit, cs)
							inval |= i
						}
						f, i, pf := tab.accessCaches(ws, rs, us, cs, toMem, work)
						assert.Equal(t, [3]cmdbuf.CacheMask{flush, inval, post}, [3]cmdbuf.CacheMask{f, i, pf},
							"%s %s writers %#x readers %#x users %#x layout's clients %#x to memory %v work %v", name, e, ws, rs, us, cs, toMem, work)
					}
				}
			}
		}
	}
}
