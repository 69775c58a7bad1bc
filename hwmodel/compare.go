package hwmodel

import "fmt"

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
	for _, r := range regions {
		got, err := m.Logical(r.Addr, r.Size, r.Surface)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		want := m.ref.read(r.Addr, r.Size)
		var d *Difference
		for i := range got {
			if got[i] == want[i] {
				continue
			}
			if d == nil {
				d = &Difference{Region: r, First: uint64(i), Got: got[i], Want: want[i]}
			}
			d.Last = uint64(i)
			d.Count++
		}
		if d != nil {
			out = append(out, *d)
		}
	}
	return out, nil
}

// Reference reads the reference's bytes (after Run).
func (m *Machine) Reference(addr, size uint64) []byte { return m.ref.read(addr, size) }
