package resource

import (
	"errors"
	"fmt"
)

// Classes of error; test with errors.Is. Every error this package returns is
// a *FieldError wrapping one of them.
var (
	// ErrInvalidDesc: a resource or heap description breaks a creation rule.
	ErrInvalidDesc = errors.New("invalid description")
	// ErrOutOfBounds: a subresource or range lies outside the resource.
	ErrOutOfBounds = errors.New("out of bounds")
	// ErrEmptyRange: a subresource range selects nothing (errata
	// E-SUBRESOURCE-ZERO-COUNTS).
	ErrEmptyRange = errors.New("empty subresource range")
	// ErrPlacement: a resource does not fit a heap at an offset.
	ErrPlacement = errors.New("invalid placement")
	// ErrSmallPlacement: a placement at an offset only a small-resource
	// alignment allows, of a resource that does not have it; it wraps
	// ErrPlacement too.
	ErrSmallPlacement = fmt.Errorf("%w: not a small resource", ErrPlacement)
	// ErrLayout: a layout the resource cannot have.
	ErrLayout = errors.New("incompatible layout")
	// ErrAccess: an access the resource cannot have.
	ErrAccess = errors.New("incompatible access")
)

// FieldError names what was wrong: the field (as the DDI structure names it),
// the value it held, and the rule it broke.
type FieldError struct {
	Field string
	Value string
	Rule  string
	Err   error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s = %s: %s", e.Field, e.Value, e.Rule)
}

func (e *FieldError) Unwrap() error { return e.Err }

func fieldErr(class error, field, value, rule string, args ...any) error {
	if len(args) > 0 {
		rule = fmt.Sprintf(rule, args...)
	}
	return &FieldError{Field: field, Value: value, Rule: rule, Err: class}
}
