package ddi

import "slices"

// FuncTable is the slot order of one of the DDI's function tables: every
// slot is one function pointer (8 bytes on x64), so a slot's offset is its
// index times 8. A C shim that fills the table from ebref's functions checks
// its offsets against these (ebref's driver fills the slots listed in
// package umd's function-table view).
type FuncTable struct {
	Name  string   // the C structure
	Slots []string // member names, in order
}

// SlotSize is the size of one slot: a function pointer on x64.
const SlotSize = 8

// Size is sizeof the table on x64.
func (t FuncTable) Size() int { return len(t.Slots) * SlotSize }

// Offset is the byte offset of the named slot (pfnBarrier), false if the
// table has no such slot.
func (t FuncTable) Offset(slot string) (int, bool) {
	i := slices.Index(t.Slots, slot)
	return i * SlotSize, i >= 0
}
