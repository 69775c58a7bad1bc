package umd

import (
	"math/rand/v2"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/require"
)

// Stages, clientsOf and clientRoles, tables, give for masks of many bits the union of
// what syncStages and accessClients say of each bit.
func TestHardwareTablesFollowTheirRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		s := ddi.BarrierSync(rng.Uint32() & rng.Uint32())
		var stages cmdbuf.StageMask
		for _, r := range syncStages {
			if r.sync&(s|ddi.ExpandSync(s)) != 0 {
				stages |= r.stages
			}
		}
		require.Equal(t, stages, Stages(s), "Stages(%#x)", uint32(s))

		a := ddi.BarrierAccess(rng.Uint32() & rng.Uint32())
		var cs, ws, os clientMask
		for _, r := range accessClients {
			if r.access&a != 0 {
				cs |= r.clients
				if r.access&ddi.WriteAccesses != 0 {
					ws |= r.clients
				} else {
					os |= r.clients
				}
			}
		}
		require.Equal(t, cs, clientsOf(a), "clientsOf(%#x)", uint32(a))
		w, o := clientRoles(a)
		require.Equal(t, [2]clientMask{ws, os}, [2]clientMask{w, o}, "clientRoles(%#x)", uint32(a))
	}
}

// A cache table's of, two table reads, is pathsOf, the walk of the mask's
// clients, for every set of clients on every engine of every profile.
func TestCacheTableOfIsItsPaths(t *testing.T) {
	for _, p := range hwmodel.Profiles() {
		for e := range hwmodel.NumEngineKinds {
			tb := newCacheTable(p, hwmodel.EngineKind(e))
			for m := clientMask(0); m < 1<<cmdbuf.NumClients; m++ {
				if got, want := tb.of(m), tb.pathsOf(m); got != want {
					t.Fatalf("%s engine %d clients %#x: of %+v, pathsOf %+v", p.Name, e, uint32(m), got, want)
				}
			}
		}
	}
}
