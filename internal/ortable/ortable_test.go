package ortable

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// A function of each set bit, ORed: the table must give it on any mask.
func TestTableIsTheFunction(t *testing.T) {
	perBit := func(m uint32) uint32 {
		out := uint32(0x80) // f(0): every value includes it
		for ; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			out |= 1<<((i*7)%32) | 1<<((i*13+5)%32)
		}
		return out
	}
	tab := New(perBit)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		m := rng.Uint32() & rng.Uint32() // about eight bits set
		require.Equal(t, perBit(m), tab.Of(m), "mask %#x", m)
	}
	for i := range 32 {
		require.Equal(t, perBit(1<<i), tab.Of(1<<i), "bit %d", i)
	}
	require.Equal(t, perBit(0), tab.Of(0))
	require.Equal(t, perBit(^uint32(0)), tab.Of(^uint32(0)))
}

// A function that does not distribute over OR is not its table: the tests
// of every table would see it.
func TestTableOfANonDistributiveFunctionDiffers(t *testing.T) {
	count := func(m uint32) uint32 { return uint32(bits.OnesCount32(m)) }
	tab := New(count)
	require.NotEqual(t, count(0x0101), tab.Of(0x0101))
}
