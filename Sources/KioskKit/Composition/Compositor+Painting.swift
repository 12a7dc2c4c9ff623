/// The renderer: the layers painted into the shadow with pixman, front to back for what opaque layers
/// hide, then back to front.
extension Compositor {

    /// Paints `damage` of the shadow: front to back to find what opaque layers hide, then back to front.
    /// Opaque content at the layer's alpha over black, without a black fill first: a colour is filled
    /// faded; a bitmap is copied as it is and darkened by the alpha (`Bitmap.darken`: black at the
    /// complementary alpha OVER it). Both are pixman fast paths (a blit, then `over_n_8888`), and the
    /// result is pixel for pixel the black fill and the bitmap OVER it through a mask of the alpha.
    /// (SRC through the mask, one pass, has no fast path: 81 M instructions a 1920x1080 cross-fade frame
    /// against 46.6 M for the fill and OVER.)
    func paintFaded(_ layer: Layer, into shadow: Bitmap, region: Region) {
        let placement = layer.placement
        switch layer.content {
        case .none:
            break
        case .fill(let color):
            shadow.fill(color.withAlphaComponent(color.alpha * placement.alpha), operation: .source, in: region)
        case .bitmap(let bitmap):
            // Where the bitmap has pixels; black where it has none (as a fill would have left it).
            let copied = region.intersection(
                placement.rect.intersection(
                    PixelRect(x: placement.rect.x, y: placement.rect.y, width: Int32(bitmap.width), height: Int32(bitmap.height))))
            shadow.composite(bitmap, operation: .source, destination: placement.rect, clip: copied)
            shadow.darken(by: placement.alpha, in: copied)
            let rest = region.subtracting(copied)
            if !rest.isEmpty { shadow.fill(.black, operation: .source, in: rest) }
        }
    }

    /// `overBlack`: the screen's black is behind the layers (a frame); false for a plane's buffer, whose
    /// pixels no layer paints are transparent.
    func paint(_ layers: [Layer], into shadow: Bitmap, damage: Region, overBlack: Bool = true) {
        if overBlack { application.instrumentation.post(.painted(damage)) }
        var covered = Region()
        var regions = [Region](repeating: Region(), count: layers.count)
        for index in layers.indices.reversed() {
            let placement = layers[index].placement
            var visible = damage.intersection(placement.visibleRect)
            if isOpaqueCullingEnabled { visible = visible.subtracting(covered) }
            regions[index] = visible
            if isOpaqueCullingEnabled, placement.opaque, !visible.isEmpty {
                covered.formUnion(placement.visibleRect)
            }
        }
        // The screen behind every window is black. Where the first thing painted is opaque content faded
        // by its alpha (a window fading in or out), it is painted faded over black without a black fill
        // first (`paintFaded`).
        var untouched = isOpaqueCullingEnabled ? damage.subtracting(covered) : damage
        var black = Region()
        var fadedOverBlack = [Region?](repeating: nil, count: layers.count)
        for (index, layer) in layers.enumerated() where !regions[index].isEmpty && !untouched.isEmpty && !layer.content.isEmpty {
            let first = regions[index].intersection(untouched)
            guard !first.isEmpty else { continue }
            if overBlack, layer.contentIsOpaque, layer.placement.transform == nil, !layer.placement.opaque {
                fadedOverBlack[index] = first
            } else {
                black.formUnion(first)
            }
            untouched = untouched.subtracting(regions[index])
        }
        black.formUnion(untouched)
        if !black.isEmpty { shadow.fill(overBlack ? .black : .clear, operation: .source, in: black) }
        for (index, (layer, var region)) in zip(layers, regions).enumerated() where !region.isEmpty {
            if let first = fadedOverBlack[index] {
                paintFaded(layer, into: shadow, region: first)
                region = region.subtracting(first)
                if region.isEmpty { continue }
            }
            let placement = layer.placement
            switch layer.content {
            case .none:
                break
            case .fill(let color):
                let faded = color.withAlphaComponent(color.alpha * placement.alpha)
                if let transform = placement.transform {
                    shadow.fill(faded, rect: Rect(size: layer.size), transform: transform, clip: region)
                } else {
                    shadow.fill(faded, operation: faded.isOpaque ? .source : .over, in: region)
                }
            case .bitmap(let bitmap):
                if let transform = placement.transform {
                    shadow.composite(bitmap, transform: transform, opacity: placement.alpha, clip: region)
                } else {
                    shadow.composite(
                        bitmap, operation: placement.opaque ? .source : .over, destination: placement.rect,
                        opacity: placement.alpha, clip: region)
                }
            }
        }
    }
}
