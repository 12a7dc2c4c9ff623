import CDRM
import Glibc

/// A dumb buffer (CPU-drawable scanout memory) mapped into our address space, with a framebuffer on it.
public final class DRMDumbBuffer {
    public let device: DRMDevice
    public let width: Int
    public let height: Int
    /// Bytes per row, chosen by the kernel.
    public let pitch: Int
    public let size: Int
    public let handle: UInt32
    public let framebuffer: DRMFramebufferID
    /// The mapped pixels (32-bit words of its framebuffer's format). Scanout memory may be write-combined: write it, never read it.
    public let pixels: UnsafeMutableRawPointer
    private var released = false

    init(
        device: DRMDevice, width: Int, height: Int, pitch: Int, size: Int, handle: UInt32, framebuffer: DRMFramebufferID,
        pixels: UnsafeMutableRawPointer
    ) {
        self.device = device
        self.width = width
        self.height = height
        self.pitch = pitch
        self.size = size
        self.handle = handle
        self.framebuffer = framebuffer
        self.pixels = pixels
    }

    /// Unmaps, removes the framebuffer and destroys the buffer (`munmap`, `drmModeRmFB`,
    /// `drmModeDestroyDumbBuffer`). Safe to call twice; deinit calls it too.
    public func release() {
        guard !released else { return }
        released = true
        munmap(pixels, size)
        drmModeRmFB(device.fileDescriptor, framebuffer.rawValue)
        drmModeDestroyDumbBuffer(device.fileDescriptor, handle)
    }

    deinit { release() }
}

extension DRMDevice {
    /// Allocates a dumb buffer of 32-bit pixels, maps it and puts a framebuffer of `format` on it (XRGB8888
    /// or ARGB8888, `DRMFormat`), zeroed (black, or transparent). Calls `drmModeCreateDumbBuffer`,
    /// `drmModeAddFB2`, `drmModeMapDumbBuffer` and `mmap`. Undone on failure.
    public func createDumbBuffer(width: Int, height: Int, format: UInt32 = DRMFormat.xrgb8888) throws(DRMError) -> DRMDumbBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0
        var size: UInt64 = 0
        try drmCheck(
            drmModeCreateDumbBuffer(fileDescriptor, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size),
            "drmModeCreateDumbBuffer", "\(width)x\(height)")
        var framebuffer: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let added = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    drmModeAddFB2(
                        fileDescriptor, UInt32(width), UInt32(height), format,
                        UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                        UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
                }
            }
        }
        do {
            try drmCheck(added, "drmModeAddFB2", "\(width)x\(height)")
        } catch {
            drmModeDestroyDumbBuffer(fileDescriptor, handle)
            throw error
        }
        var offset: UInt64 = 0
        let mapped = drmModeMapDumbBuffer(fileDescriptor, handle, &offset)
        let pixels = mapped == 0 ? mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fileDescriptor, off_t(offset)) : nil
        guard let pixels, pixels != kiosk_map_failed() else {
            let code = mapped < 0 ? -mapped : Glibc.errno
            drmModeRmFB(fileDescriptor, framebuffer)
            drmModeDestroyDumbBuffer(fileDescriptor, handle)
            throw DRMError(operation: mapped == 0 ? "mmap" : "drmModeMapDumbBuffer", errno: code, detail: "\(width)x\(height)")
        }
        // Start black (transparent) rather than with whatever the memory held.
        memset(pixels, 0, Int(size))
        return DRMDumbBuffer(
            device: self, width: width, height: height, pitch: Int(pitch), size: Int(size), handle: handle,
            framebuffer: DRMFramebufferID(rawValue: framebuffer), pixels: pixels)
    }
}
