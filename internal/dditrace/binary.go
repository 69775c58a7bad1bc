package dditrace

import (
	"debug/dwarf"
	"debug/elf"
	"debug/gosym"
	"errors"
	"fmt"

	"golang.org/x/arch/x86/x86asm"
)

// Function is a traced function's place in an executable.
type Function struct {
	Symbol string
	// Addr is the virtual address of the first instruction, Size the
	// length of the body in bytes.
	Addr, Size uint64
	// FileOffset is where the first instruction is in the file, the
	// address a uprobe takes.
	FileOffset uint64
	// Returns are the offsets of the body's RET instructions from Addr.
	Returns []uint64
}

// Binary is what the tracer needs of an executable that links ebref.
type Binary struct {
	Path string
	// Functions holds the entry points found, by symbol.
	Functions map[string]*Function
	// GoidOffset is where runtime.g keeps the goroutine's id, from the
	// binary's DWARF; -1 when it has none (built with -ldflags=-w).
	GoidOffset int64
	// StackHiOffset is where runtime.g keeps the top of the goroutine's
	// stack (g.stack.hi): 8 in every Go release, checked against DWARF
	// when the binary has it.
	StackHiOffset int64
}

// ErrNotEbref is returned for an executable that links none of the entry
// points.
var ErrNotEbref = errors.New("the executable links none of ebref's DDI entry points (is it a Go program that imports github.com/ebref/ebref/umd?)")

// maxFunctionBytes bounds the body decoded for one function, so that a
// corrupt symbol table cannot make the tracer read gigabytes; maxReturns
// bounds the probes one function gets (ebref's have a few dozen at most).
const (
	maxFunctionBytes = 1 << 20
	maxReturns       = 1024
)

// ReadBinary finds the entry points in the executable at path, and their
// RET instructions. Entry points the program does not link (the linker
// drops functions nothing calls) are absent from Functions; none at all is
// ErrNotEbref.
func ReadBinary(path string, eps []EntryPoint) (*Binary, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 || f.Class != elf.ELFCLASS64 {
		return nil, fmt.Errorf("%s: a %v %v executable; the tracer reads only x86-64 (amd64) ones", path, f.Class, f.Machine)
	}
	want := map[string]bool{}
	for _, ep := range eps {
		want[ep.Symbol] = true
	}
	fns, err := symbolBounds(f, want)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(fns) == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrNotEbref)
	}
	b := &Binary{Path: path, Functions: fns, GoidOffset: -1, StackHiOffset: 8}
	for _, fn := range fns {
		if err := placeFunction(f, fn); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if d, err := f.DWARF(); err == nil {
		goid, hi, err := gOffsets(d)
		if err != nil {
			return nil, fmt.Errorf("%s: DWARF: %w", path, err)
		}
		b.GoidOffset = goid
		if hi != b.StackHiOffset {
			return nil, fmt.Errorf("%s: DWARF puts runtime.g's stack.hi at %d, not 8; the tracer pairs calls by it and does not know this runtime", path, hi)
		}
	}
	return b, nil
}

// symbolBounds finds the wanted functions' addresses and sizes in the
// symbol table, or in the pclntab of a binary stripped of it.
func symbolBounds(f *elf.File, want map[string]bool) (map[string]*Function, error) {
	fns := map[string]*Function{}
	syms, err := f.Symbols()
	if err == nil {
		for _, s := range syms {
			if want[s.Name] && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
				fns[s.Name] = &Function{Symbol: s.Name, Addr: s.Value, Size: s.Size}
			}
		}
		return fns, nil
	}
	if !errors.Is(err, elf.ErrNoSymbols) {
		return nil, fmt.Errorf("reading the symbol table: %w", err)
	}
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		return nil, fmt.Errorf("no symbol table and no .gopclntab, so not a Go program: %w", ErrNotEbref)
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, fmt.Errorf("reading .gopclntab: %w", err)
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		return nil, fmt.Errorf("reading .gopclntab: %w", err)
	}
	for i := range tab.Funcs {
		fn := &tab.Funcs[i]
		if want[fn.Name] && fn.End > fn.Entry {
			fns[fn.Name] = &Function{Symbol: fn.Name, Addr: fn.Entry, Size: fn.End - fn.Entry}
		}
	}
	return fns, nil
}

// placeFunction finds fn's file offset and its RET instructions.
func placeFunction(f *elf.File, fn *Function) error {
	if fn.Size == 0 || fn.Size > maxFunctionBytes {
		return fmt.Errorf("%s: a body of %d bytes; want 1 to %d", fn.Symbol, fn.Size, maxFunctionBytes)
	}
	var seg *elf.Prog
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 && p.Vaddr <= fn.Addr && fn.Addr-p.Vaddr < p.Filesz {
			seg = p
			break
		}
	}
	if seg == nil || fn.Size > seg.Filesz-(fn.Addr-seg.Vaddr) {
		return fmt.Errorf("%s at %#x (%d bytes) lies in no executable segment", fn.Symbol, fn.Addr, fn.Size)
	}
	fn.FileOffset = fn.Addr - seg.Vaddr + seg.Off
	code := make([]byte, fn.Size)
	if _, err := seg.ReadAt(code, int64(fn.Addr-seg.Vaddr)); err != nil {
		return fmt.Errorf("%s: reading its %d bytes at file offset %#x: %w", fn.Symbol, fn.Size, fn.FileOffset, err)
	}
	rets, err := findReturns(code)
	if err != nil {
		return fmt.Errorf("%s: %w", fn.Symbol, err)
	}
	if len(rets) == 0 {
		return fmt.Errorf("%s: no RET instruction in its %d bytes; its returns could not be probed", fn.Symbol, fn.Size)
	}
	fn.Returns = rets
	return nil
}

// findReturns decodes code from its first byte to its last and returns the
// offsets of its RET instructions. A byte that is 0xC3 inside another
// instruction (an immediate, a displacement) is not a RET, which is why
// the body is decoded rather than searched.
func findReturns(code []byte) ([]uint64, error) {
	var rets []uint64
	for off := 0; off < len(code); {
		inst, err := x86asm.Decode(code[off:], 64)
		if err != nil {
			n := min(len(code)-off, 8)
			return nil, fmt.Errorf("+%#x: cannot decode the instruction at % x: %w", off, code[off:off+n], err)
		}
		if inst.Op == x86asm.RET {
			if len(rets) == maxReturns {
				return nil, fmt.Errorf("more than %d RET instructions: not a compiled entry point of ebref", maxReturns)
			}
			rets = append(rets, uint64(off))
		}
		off += inst.Len
	}
	return rets, nil
}

// gOffsets reads where runtime.g keeps goid and stack.hi.
func gOffsets(d *dwarf.Data) (goid, stackHi int64, err error) {
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return 0, 0, err
		}
		if e == nil {
			return 0, 0, errors.New("no runtime.g type")
		}
		if e.Tag != dwarf.TagStructType || e.Val(dwarf.AttrName) != "runtime.g" {
			if e.Tag != dwarf.TagCompileUnit {
				r.SkipChildren()
			}
			continue
		}
		t, err := d.Type(e.Offset)
		if err != nil {
			return 0, 0, err
		}
		st, ok := t.(*dwarf.StructType)
		if !ok {
			return 0, 0, errors.New("runtime.g is not a struct")
		}
		goid, stackHi = -1, -1
		for _, fl := range st.Field {
			switch fl.Name {
			case "goid":
				goid = fl.ByteOffset
			case "stack":
				ft := fl.Type
				for {
					td, ok := ft.(*dwarf.TypedefType)
					if !ok {
						break
					}
					ft = td.Type
				}
				if s, ok := ft.(*dwarf.StructType); ok {
					for _, sf := range s.Field {
						if sf.Name == "hi" {
							stackHi = fl.ByteOffset + sf.ByteOffset
						}
					}
				}
			}
		}
		if goid < 0 || stackHi < 0 {
			return 0, 0, errors.New("runtime.g has no goid or stack.hi")
		}
		return goid, stackHi, nil
	}
}
