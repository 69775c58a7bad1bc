// Package ortable turns a function of a 32-bit mask that distributes over
// bitwise OR — f(a|b) == f(a)|f(b), as every "the union over the mask's
// bits of something per bit" does — into four table reads: such a function
// is the OR of its values on the mask's four bytes, and a table holds those
// for every byte value at every position.
//
// The barrier path asks these questions several times for every barrier
// (which leaf scopes a sync names, which stages and clients those are,
// which accesses a sync satisfies); answered by a loop over the set bits
// they cost tens of instructions each, by a Table about five.
//
// This package imports nothing of ebref.
package ortable

// Table is f's value for every byte value at each of the mask's four byte
// positions (4 KiB).
type Table [4][256]uint32

// New builds the table of f, which must distribute over OR (f(0) is then
// the value every other value includes). Tests of each table compare Of
// with f on masks of many bits. It returns the table itself, for a
// variable: its reads then need no pointer loaded first.
func New(f func(m uint32) uint32) (t Table) {
	for pos := range t {
		for b := range t[pos] {
			t[pos][b] = f(uint32(b) << (8 * pos))
		}
	}
	return t
}

// Of is f(m).
func (t *Table) Of(m uint32) uint32 {
	return t[0][uint8(m)] | t[1][uint8(m>>8)] | t[2][uint8(m>>16)] | t[3][m>>24]
}
