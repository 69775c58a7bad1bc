package ddi

import (
	"fmt"
	"strings"
)

// PredicationOp is D3D12DDI_PREDICATION_OP (d3d12umddi.h; D3D12_PREDICATION_OP
// of d3d12.h has the same values): which value of the 64-bit predicate
// skips the predicated commands after pfnSetPredication.
type PredicationOp uint32

// The predication operations.
const (
	PredicationOpEqualZero    PredicationOp = 0 // skip while all 64 bits are zero
	PredicationOpNotEqualZero PredicationOp = 1 // skip while any bit is set
)

var predicationOpNames = [...]string{"EQUAL_ZERO", "NOT_EQUAL_ZERO"}

func (o PredicationOp) String() string {
	if int(o) < len(predicationOpNames) {
		return predicationOpNames[o]
	}
	return fmt.Sprintf("PREDICATION_OP_%d", uint32(o))
}

// ParsePredicationOp accepts what String prints, with or without the
// header's D3D12DDI_PREDICATION_OP_ or D3D12_PREDICATION_OP_ prefix.
func ParsePredicationOp(s string) (PredicationOp, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "D3D12DDI_PREDICATION_OP_"), "D3D12_PREDICATION_OP_")
	for i, n := range predicationOpNames {
		if n == t {
			return PredicationOp(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a predication operation (EQUAL_ZERO, NOT_EQUAL_ZERO)", s)
}
