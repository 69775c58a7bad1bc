// Package caps is what ebref's driver reports about itself on a hardware
// profile: D3D12DDI_D3D12_OPTIONS_DATA_0089 (with EnhancedBarriersSupported
// TRUE, 001 "Reporting enhanced barrier support"), each member's value with
// the reason for it, and which layouts a Barrier on each command-list type
// may name (000 "Command Queue Layout Compatibility", as ebref reads it:
// docs/errata.md).
//
// It reads the hardware profile and the DDI tables: this package imports
// ddi and hwmodel, and nothing else of ebref. It records nothing and has
// no state.
package caps
