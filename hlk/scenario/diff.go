package scenario

import (
	"fmt"
	"reflect"
)

// Diff is the first difference between two cases, "" when there is none:
// their titles, parameters aside, header, statements and expectations,
// ignoring where each was written (positions and File) and the
// parameters' values, which name a case (a text Format writes has them in
// place). A nil and an empty slice or map are equal, as the parser makes
// either.
func Diff(a, b *Scenario) string {
	x, y := *a, *b
	x.File, y.File = "", ""
	x.Params, y.Params = nil, nil
	return diff("", x, y)
}

var posType = reflect.TypeFor[Pos]()

// diff compares two values member by member, skipping positions.
func diff(path string, a, b any) string {
	return diffValue(path, reflect.ValueOf(a), reflect.ValueOf(b))
}

func diffValue(path string, a, b reflect.Value) string {
	if a.IsValid() != b.IsValid() {
		return fmt.Sprintf("%s: %v against %v", path, a, b)
	}
	if !a.IsValid() || a.Type() == posType {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: a %s against a %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: %v against %v", path, a, b)
			}
			return ""
		}
		return diffValue(path, a.Elem(), b.Elem())
	case reflect.Struct:
		t := a.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				// ddi.Barrier's union: compared whole below.
				if a.Interface() != b.Interface() {
					return fmt.Sprintf("%s: %+v against %+v", path, a, b)
				}
				return ""
			}
			if d := diffValue(path+"."+f.Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d elements against %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d entries against %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			if d := diffValue(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), b.MapIndex(k)); d != "" {
				return d
			}
		}
		return ""
	}
	if a.Interface() != b.Interface() {
		return fmt.Sprintf("%s: %v against %v", path, a, b)
	}
	return ""
}
