// Package resource is resource math without hardware: descriptions of
// buffers and 1D, 2D and 3D textures (mips, array size or depth, samples,
// planes from the format) and their validation; subresource indexing in
// D3D12's numbering; the interpretation of a barrier's subresource range;
// memory footprints, sizes and placement alignment following D3D12's rules;
// heaps, placement and aliasing (overlap) queries; and the spec's rules on
// initial layouts and on the layouts and accesses a resource may have.
//
// Every invalid input gets a *FieldError naming the field (as the DDI
// structure names it), the value and the rule, wrapping one of the Err
// classes.
//
// This package imports ddi and nothing else of ebref.
package resource
