package hwmodel

import (
	"bytes"
	"fmt"
)

// Region names bytes to compare: a buffer, or a surface's bytes (Surface
// non-zero: compared as an aware client reads them).
type Region struct {
	Name    string
	Addr    uint64
	Size    uint64
	Surface uint16
}

// Difference says where a region's bytes differ from the reference.
type Difference struct {
	Region Region
	First  uint64 // offset of the first differing byte
	Last   uint64 // offset of the last
	Count  uint64 // differing bytes
	Got    byte   // the model's first differing byte
	Want   byte   // the reference's
}

func (d Difference) String() string {
	return fmt.Sprintf("%s: %d bytes differ between offsets 0x%x and 0x%x (first: got 0x%02x, reference 0x%02x)",
		d.Region.Name, d.Count, d.First, d.Last, d.Got, d.Want)
}

// Compare reports, per region, where the model's final bytes differ from
// the sequentially consistent reference's. Call it after Run.
func (m *Machine) Compare(regions ...Region) ([]Difference, error) {
	var out []Difference
	var got, want [compareChunk]byte
	for _, r := range regions {
		if err := m.checkLogical(r.Addr, r.Size, r.Surface); err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		var d *Difference
		for off := uint64(0); off < r.Size; off += compareChunk {
			n := min(compareChunk, r.Size-off)
			m.logicalInto(r.Addr+off, got[:n], r.Surface)
			m.ref.mem.Read(r.Addr+off, want[:n])
			if bytes.Equal(got[:n], want[:n]) {
				continue
			}
			for i := range n {
				if got[i] == want[i] {
					continue
				}
				if d == nil {
					d = &Difference{Region: r, First: off + i, Got: got[i], Want: want[i]}
				}
				d.Last = off + i
				d.Count++
			}
		}
		if d != nil {
			out = append(out, *d)
		}
	}
	return out, nil
}

// compareChunk is how many bytes Compare decodes at a time: a region is
// compared without a copy of its size.
const compareChunk = 16 << 10

// Reference reads the reference's bytes (after Run).
func (m *Machine) Reference(addr, size uint64) []byte { return m.ref.read(addr, size) }
