package umd

import (
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/driver"
)

// The structures a driver shares with the harness are package
// hlk/driver's: these names keep the driver's API as it was.
type (
	View          = driver.View
	Box           = driver.Box
	Shader        = driver.Shader
	Draw          = driver.Draw
	Dispatch      = driver.Dispatch
	DispatchRays  = driver.DispatchRays
	Video         = driver.Video
	BarrierRecord = driver.BarrierRecord
	SurfaceOp     = driver.SurfaceOp
)

// WholeBuffer views every byte of a buffer.
func WholeBuffer(h ddi.HResource) View { return driver.WholeBuffer(h) }

// BufferRange views size bytes of a buffer from off.
func BufferRange(h ddi.HResource, off, size uint64) View { return driver.BufferRange(h, off, size) }

// WholeTexture views every subresource of a texture.
func WholeTexture(h ddi.HResource) View { return driver.WholeTexture(h) }

// Subresource views one subresource of a texture.
func Subresource(h ddi.HResource, index uint32) View { return driver.Subresource(h, index) }

// BufferDesc describes a buffer (driver.BufferDesc).
func BufferDesc(size uint64, flags ddi.ResourceFlags) ddi.CreateResource0088 {
	return driver.BufferDesc(size, flags)
}

// Texture2DDesc describes a 2D texture (driver.Texture2DDesc).
func Texture2DDesc(format ddi.Format, width, height uint32, arraySize, mips uint16, flags ddi.ResourceFlags,
	initial ddi.BarrierLayout) ddi.CreateResource0088 {
	return driver.Texture2DDesc(format, width, height, arraySize, mips, flags, initial)
}
