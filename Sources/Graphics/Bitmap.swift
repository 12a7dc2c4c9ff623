import CLazyPangoCairo
import CPixman
import Glibc

/// One pixel buffer that cairo draws into and pixman composites from and into.
///
/// The memory is ours (allocated here: a mapping of its own from 64 KiB, else calloc; rows `stride` bytes
/// apart as `cairo_format_stride_for_width` requires) and is wrapped twice: by a pixman image
/// (`pixman_image_create_bits`) for composition, and, from the first drawing or PNG, by a cairo image
/// surface (`cairo_image_surface_create_for_data`). cairo may keep work and caches (snapshots of a surface
/// used as a source) outside the pixels, so every access that bypasses cairo first calls
/// `cairo_surface_flush`, and every write that bypasses cairo ends with `cairo_surface_mark_dirty`.
///
/// The surface is made on first use because cairo loads with pango (`PangoCairoLibrary`, 35 libraries on
/// a thread of their own at start, or linked in with the linked text stack): a bitmap that is only
/// composited into, a display's scanout buffers, is made and filled without waiting for them.
///
/// Not `Sendable`: a bitmap belongs to the thread (the main actor) that draws into it.
public final class Bitmap: CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next, from `cairo_format_stride_for_width` (a multiple of 4).
    public let stride: Int
    public let format: PixelFormat

    /// The pixels. Once the cairo surface is made, freed by its user-data destructor, not by `deinit`:
    /// cairo may hold a reference to the surface (a pattern in a `cairo_t` that outlives us) and the
    /// memory must live as long as the surface does.
    let data: UnsafeMutableRawPointer
    /// `pixman_image_t *` over the same memory.
    let image: OpaquePointer
    /// Who frees `data`.
    private let owner: Owner
    /// The cairo surface, once made.
    private var madeSurface: OpaquePointer?

    /// Whether cairo has drawn here or been asked to (the surface is made).
    var hasCairoSurface: Bool { madeSurface != nil }

    /// `cairo_surface_t *` over the memory, made on first use (then it owns the memory, as above).
    var surface: OpaquePointer {
        if let madeSurface { return madeSurface }
        let surface = Self.makeSurface(memory: data, width: width, height: height, stride: stride, format: format, owner: owner)
        madeSurface = surface
        return surface
    }

    /// A zero-filled bitmap (transparent black; black for `.xrgb8888`). Sizes up to 32767, cairo's limit
    /// for image surfaces; anything else is a programmer error.
    /// Calls `cairo_format_stride_for_width`, `cairo_image_surface_create_for_data` and `pixman_image_create_bits`.
    public convenience init(width: Int, height: Int, format: PixelFormat = .argb32Premultiplied) {
        precondition(
            (0...32767).contains(width) && (0...32767).contains(height),
            "Bitmap(width: \(width), height: \(height)): size outside 0...32767")
        let stride = Int(cairo_format_stride_for_width(format.cairoFormat, Int32(width)))
        precondition(stride >= 0, "cairo_format_stride_for_width(\(width)) failed")
        let length = max(stride * height, 1)
        if length >= Self.mappedLength {
            // Its own mapping: zero pages the kernel provides only when first written, so the parts of a
            // view's cache that nothing is drawn on (most of a label the width of the screen) take no
            // memory, and munmap gives all of it back. calloc did that only below malloc's mmap threshold,
            // which glibc raises to the size of each mapped block freed: after a few, caches came from the
            // heap, cleared whole and kept there when freed.
            let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let memory, memory != MAP_FAILED else {
                fatalError("Bitmap(width: \(width), height: \(height)): out of memory (mmap: errno \(errno))")
            }
            self.init(memory: memory, width: width, height: height, stride: stride, format: format, owner: .mapped(length))
        } else {
            // calloc, not allocate and a fill. 16-byte alignment is more than pixman and cairo need (4).
            guard let data = calloc(length, 1) else {
                fatalError("Bitmap(width: \(width), height: \(height)): out of memory")
            }
            self.init(memory: data, width: width, height: height, stride: stride, format: format, owner: .allocated)
        }
    }

    /// From this many bytes a bitmap has a mapping of its own (64 KiB: a 128x128 view's cache).
    static let mappedLength = 64 * 1024

    /// Who frees a bitmap's memory.
    private enum Owner {
        /// Not the bitmap (a scanout buffer).
        case caller
        /// calloc: free.
        case allocated
        /// mmap of this many bytes: munmap.
        case mapped(Int)
    }

    /// A bitmap over memory it does not own, e.g. a mapped DRM dumb buffer or an fbdev mapping, with the
    /// row pitch the device chose. The caller keeps the memory alive and unchanged in size for the
    /// bitmap's whole life. Write-combined scanout memory is slow to read: use such a bitmap only as the
    /// destination of `.source` copies (`copy(from:rotation:region:)`).
    public convenience init(wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        precondition(
            (0...32767).contains(width) && (0...32767).contains(height) && stride >= width * 4 && stride % 4 == 0,
            "Bitmap(wrapping:) \(width)x\(height) stride \(stride): invalid geometry")
        self.init(memory: memory, width: width, height: height, stride: stride, format: format, owner: .caller)
    }

    /// Wraps `memory` for pixman. Calls `pixman_image_create_bits`.
    private init(memory: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat, owner: Owner) {
        guard
            let image = pixman_image_create_bits(
                format.pixmanFormat, Int32(width), Int32(height),
                memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else {
            Self.release(memory, owner: owner)
            fatalError("pixman_image_create_bits(\(width)x\(height)) failed: out of memory")
        }
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.data = memory
        self.owner = owner
        self.image = image
    }

    /// A cairo surface over `memory`; unless the caller owns it, the surface frees it when cairo lets go.
    /// Calls `cairo_image_surface_create_for_data` and `cairo_surface_set_user_data`.
    private static func makeSurface(
        memory: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat, owner: Owner
    ) -> OpaquePointer {
        let surface = cairo_image_surface_create_for_data(
            memory.assumingMemoryBound(to: UInt8.self),
            format.cairoFormat, Int32(width), Int32(height),
            Int32(stride))!
        var attached = CAIRO_STATUS_SUCCESS
        switch owner {
        case .caller:
            break
        case .allocated:
            attached = cairo_surface_set_user_data(surface, bitmapMemoryKey, memory, { free($0) })
        case .mapped(let length):
            let mapping = UnsafeMutablePointer<(base: UnsafeMutableRawPointer, length: Int)>.allocate(capacity: 1)
            mapping.initialize(to: (memory, length))
            attached = cairo_surface_set_user_data(surface, bitmapMemoryKey, mapping) { pointer in
                let mapping = pointer!.assumingMemoryBound(to: (base: UnsafeMutableRawPointer, length: Int).self)
                munmap(mapping.pointee.base, mapping.pointee.length)
                mapping.deallocate()
            }
            if attached != CAIRO_STATUS_SUCCESS { mapping.deallocate() }
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, attached == CAIRO_STATUS_SUCCESS else {
            fatalError(
                "cairo_image_surface_create_for_data(\(width)x\(height), stride \(stride)): "
                    + String(cString: cairo_status_to_string(cairo_surface_status(surface))!))
        }
        return surface
    }

    /// Frees memory of ours that no cairo surface holds.
    private static func release(_ memory: UnsafeMutableRawPointer, owner: Owner) {
        switch owner {
        case .caller: break
        case .allocated: free(memory)
        case .mapped(let length): munmap(memory, length)
        }
    }

    deinit {
        // The pixman image only borrows the memory; a surface's destructor frees it once cairo lets go.
        pixman_image_unref(image)
        if let madeSurface {
            cairo_surface_destroy(madeSurface)
        } else {
            Self.release(data, owner: owner)
        }
    }

    public var size: Size { Size(width: Double(width), height: Double(height)) }

    /// `Bitmap(1280x800 xrgb8888)`, for logs.
    public var description: String { "Bitmap(\(width)x\(height) \(format))" }

    /// The whole bitmap, in the coordinates composition uses.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height)) }

    /// True for `.xrgb8888`: every pixel is opaque whatever its top byte holds.
    public var isOpaque: Bool { format == .xrgb8888 }

    /// The stored word at (x, y), `0xAARRGGBB` premultiplied. For `.xrgb8888` the top byte is whatever was
    /// stored there (0 after `init`, often 0xff or a computed alpha after drawing): mask it off.
    /// Calls `cairo_surface_flush` first so pending cairo drawing is visible.
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(
            x >= 0 && x < width && y >= 0 && y < height,
            "Bitmap.pixel(x: \(x), y: \(y)) outside \(width)x\(height)")
        beginDirectAccess()
        return data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    /// The raw pixels (`stride * height` bytes), for copying into scanout buffers.
    /// Calls `cairo_surface_flush` before.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        beginDirectAccess()
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height))
    }

    /// The raw pixels for writing. Calls `cairo_surface_flush` before and `cairo_surface_mark_dirty`
    /// after, so cairo drops any cached copy of the old content.
    public func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        beginDirectAccess()
        defer { endDirectWrite() }
        return try body(UnsafeMutableRawBufferPointer(start: data, count: stride * height))
    }

    /// Before pixman (or anything but cairo) reads or writes the memory: `cairo_surface_flush` (nothing
    /// before cairo has a surface here: it cannot have work pending).
    func beginDirectAccess() {
        if let madeSurface { cairo_surface_flush(madeSurface) }
    }

    /// After pixman (or anything but cairo) wrote the memory: `cairo_surface_mark_dirty` (nothing before
    /// cairo has a surface here: it cannot hold a copy).
    func endDirectWrite() {
        if let madeSurface { cairo_surface_mark_dirty(madeSurface) }
    }
}

/// The key under which each Bitmap's cairo surface holds its memory (`cairo_surface_set_user_data`);
/// cairo compares keys by address only, so one allocation that is never freed or written serves all.
nonisolated(unsafe) private let bitmapMemoryKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)
