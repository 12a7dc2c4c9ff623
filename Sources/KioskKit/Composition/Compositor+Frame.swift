/// One frame of a screen, from the scene's walk to the output's buffer: damage, the scroll copies, the
/// paint of the shadow (or of a cached-memory buffer in place), the copy through the rotation, the damage ring.
extension Compositor {
    // MARK: Composing a frame

    /// `tick`: the frame-clock tick the frame is made for; nil when a change makes it.
    func composeFrame(on screen: Screen, state: ScreenState, reportedDamage: Region?, tick: TimeInterval? = nil) {
        state.needsFrame = false
        state.paceTimer?.cancel()
        state.paceTimer = nil
        let started = tick ?? application.clock.now
        guard screen.isConnected, let mode = screen.currentMode else { return }
        let logical = screen.bounds.size
        let width = Int(logical.width), height = Int(logical.height)
        guard width > 0, height > 0 else { return }
        let screenRect = PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height))

        var damage = Region()
        if state.size != screenRect {
            state.size = screenRect
            state.shadow = nil
            state.fullRepaint = true
        }
        let windows = application.composedWindows(on: screen)
        for window in windows { window.layoutIfNeeded() }
        // What that layout changed (a table's new cells) is in this frame: it leaves no frame pending,
        // unless it changed which windows show, which this frame did not take in.
        if application.composedWindows(on: screen).elementsEqual(windows, by: ===) { state.needsFrame = false }
        scrollRegions.removeAll(keepingCapacity: true)
        composedScreenRect = screenRect
        var layers = collectLayers(of: windows, damage: &damage)
        let planeFrame = placeOnPlanes(&layers, state: state, screen: screen, damage: &damage)
        let scroll =
            isScrollCopyEnabled && !state.fullRepaint && reportedDamage == nil
            ? planScrollCopies(layers: layers, state: state, screenRect: screenRect) : ScrollPlan()
        state.scrolls = scrollRegions.map { ($0.view, $0) }.reduce(into: [:]) { $0[$1.0] = $1.1 }

        // Placements: what moved, appeared, vanished or changed looks damages its old and new place (the
        // layers a scroll copy moves, and those it accounts for, excepted).
        var placements: [ObjectIdentifier: Placement] = [:]
        placements.reserveCapacity(layers.count)
        // Re-stacking: a layer that was behind one painted before it now. Layers that only moved in the
        // frame's order because others came or went (a caret blinking under the keyboard) keep their order.
        var lastOldIndex = -1
        for layer in layers {
            let id = ObjectIdentifier(layer.view)
            placements[id] = layer.placement
            if scroll.handled.contains(id) { continue }
            if let old = state.placements[id] {
                let inOrder = old.index > lastOldIndex
                if inOrder { lastOldIndex = old.index }
                if !inOrder || !old.isPainted(like: layer.placement) {
                    damage.formUnion(old.visibleRect)
                    damage.formUnion(layer.placement.visibleRect)
                }
            } else {
                damage.formUnion(layer.placement.visibleRect)
            }
        }
        for (id, old) in state.placements where placements[id] == nil && !scroll.handled.contains(id) { damage.formUnion(old.visibleRect) }
        state.placements = placements
        damage.formUnion(scroll.damage)

        if state.fullRepaint {
            damage = Region(screenRect)
            state.fullRepaint = false
        }
        if let reportedDamage { damage = reportedDamage }
        damage = damage.intersection(screenRect)
        // What changes on the screen: what is painted, and what a scroll copy moves.
        let changed = scroll.copies.isEmpty ? damage : damage.union(scroll.moved).intersection(screenRect)
        guard !changed.isEmpty else {
            if let planeFrame, planeFrame.changed { presentPlanes(planeFrame, on: screen, state: state, started: started, tick: tick) }
            return
        }

        guard let buffer = output.nextBuffer(for: screen) else {
            // The output cannot take a frame now (e.g. the session is paused): paint it all when it can.
            state.fullRepaint = true
            state.damageRing.removeAll()
            return
        }
        let physicalRect = PixelRect(x: 0, y: 0, width: Int32(mode.width), height: Int32(mode.height))
        // A display that turns its primary plane (DRM's `rotation` property) gets the frame upright.
        let bufferRotation =
            screen.rotation != .normal && !screen.rotation.swapsAxes && output.rotatesInScanout(screen.rotation, for: screen)
            ? Rotation.normal : screen.rotation
        let physicalDamage = changed.transformed(by: bufferRotation, logicalSize: logical)
        // What this buffer missed: the damage of every frame since it was last drawn (nil: it is new or
        // older than the ring remembers), then this frame's.
        var missed: Region? = nil
        if buffer.age > 0, buffer.age - 1 <= state.damageRing.count {
            missed = state.damageRing.prefix(buffer.age - 1).reduce(into: Region()) { $0.formUnion($1) }
        }
        let bufferDamage = missed.map { physicalDamage.union($0) } ?? Region(physicalRect)
        if output.buffersAreCachedMemory && bufferRotation == .normal {
            // Paint in place: no shadow (what the benchmark's full frame is measured against).
            state.shadow = nil
            let last = state.inPlaceBuffer
            state.inPlaceBuffer = buffer.bitmap
            var holdsLastFrame = buffer.age == 1
            if buffer.age > 1, let missed, !damage.contains(screenRect), let last, last !== buffer.bitmap,
                last.width == buffer.bitmap.width, last.height == buffer.bitmap.height
            {
                // A buffer of a page-flipped pair missed the frames since it was drawn, and the buffer of the
                // last frame holds them: their pixels are copied from it (cheaper than compositing them
                // again), and this buffer then holds the last frame, as a single buffer would.
                buffer.bitmap.copy(from: last, rotation: .normal, region: missed)
                holdsLastFrame = true
            }
            if holdsLastFrame {
                // Move what stays in view, paint the rest.
                for copy in scroll.copies { buffer.bitmap.move(copy.destination, from: copy.dx, copy.dy) }
                paint(layers, into: buffer.bitmap, damage: damage)
            } else {
                paint(layers, into: buffer.bitmap, damage: bufferDamage)
            }
        } else {
            state.inPlaceBuffer = nil
            if let shadow = state.shadow {
                // The shadow holds the last frame: move what stays in view, paint the rest.
                for copy in scroll.copies { shadow.move(copy.destination, from: copy.dx, copy.dy) }
                paint(layers, into: shadow, damage: damage)
            } else {
                // A new shadow holds nothing yet: paint all of it once.
                let shadow = Bitmap(width: width, height: height, format: .xrgb8888)
                state.shadow = shadow
                paint(layers, into: shadow, damage: Region(screenRect))
            }
            buffer.bitmap.copy(from: state.shadow!, rotation: bufferRotation, region: bufferDamage)
        }
        state.composedRotation = screen.rotation
        state.bufferRotation = bufferRotation
        state.damageRing.insert(physicalDamage, at: 0)
        if state.damageRing.count > Self.damageRingLength { state.damageRing.removeLast() }
        state.inFlight = true
        state.inFlightMovesPlanesOnly = false
        state.framesComposed += 1
        state.lastFrameStart = started
        state.frameTick = tick
        if let planeFrame {
            state.planeContents = planeFrame.contents
            output.present(buffer, for: screen, damage: bufferDamage, planes: planeFrame.layers)
        } else {
            output.present(buffer, for: screen, damage: bufferDamage)
        }
        application.instrumentation.post(.frameComposed(screen))
    }

    /// Nothing composed changed, only what the planes show (a cursor moved): the output moves them.
    private func presentPlanes(_ frame: PlaneFrame, on screen: Screen, state: ScreenState, started: TimeInterval, tick: TimeInterval?) {
        state.planeContents = frame.contents
        state.inFlight = true
        state.inFlightMovesPlanesOnly = true
        state.lastFrameStart = started
        state.frameTick = tick
        output.present(nil, for: screen, damage: Region(), planes: frame.layers)
    }
}
