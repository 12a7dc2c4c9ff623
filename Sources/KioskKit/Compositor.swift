import Dispatch
import Glibc
import Logging

/// Where composed frames go: a display backend's buffers for one screen (DRM dumb buffers, an fbdev
/// mapping, the headless backend's memory).
@MainActor
public protocol FrameOutput: AnyObject {
    /// The buffer to put the next frame of `screen` in, sized to the screen's current mode (physical,
    /// unrotated pixels), or nil when the screen cannot show frames now. The compositor writes every
    /// pixel of the region it was told about and nothing else.
    func nextBuffer(for screen: Screen) -> FrameBuffer?
    /// Shows `buffer`; `damage` (physical pixels) is what changed since the frame before. The output calls
    /// `Compositor.framePresented(on:at:)` when the frame is on screen (after the page flip, with the
    /// flip's vblank time when the display has vblank interrupts, nil otherwise), which allows the next
    /// one: at most one frame is in flight per screen.
    func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region)
    /// True when the buffers are ordinary cached memory (headless, tests): the compositor may then paint an
    /// unrotated screen straight into them instead of into a shadow it copies from. Scanout memory (DRM
    /// dumb buffers, fbdev) is write-combined and slow to read, so those outputs say false (the default).
    var buffersAreCachedMemory: Bool { get }
}

extension FrameOutput {
    public var buffersAreCachedMemory: Bool { false }
}

/// A buffer to draw a frame into, and its age: 0 when its contents are unknown, n when it holds the
/// frame presented n frames ago (1 for the previous frame, as EGL's buffer age).
public struct FrameBuffer {
    public let bitmap: Bitmap
    public let age: Int

    public init(bitmap: Bitmap, age: Int) {
        self.bitmap = bitmap
        self.age = age
    }
}

/// Composes the visible windows of each screen into frames: level order, then order shown (the runtime's
/// overlays, the mouse cursor, over them all), then each window's views in tree order, with alpha and `clipsToBounds`, redrawing only damaged regions.
///
/// Every view has a cached rendering (its background and `draw(_:)` output); `draw(_:)` runs only after
/// `setNeedsDisplay`. Each frame records where every view was placed; a view that moved, changed alpha,
/// was hidden, re-stacked or removed damages where it was and where it is, so moving things never redraws
/// them. A frame paints only the damage: front to back, regions under opaque views (declared with
/// `isOpaque` or an opaque background) are skipped, then the layers are composited back to front with
/// pixman into a RAM shadow of the screen's logical size. The damaged part of the shadow (grown by the
/// output buffer's age) is copied through the screen's rotation into the output's buffer.
///
/// Views are placed by their presentation values (what animations show) and transforms: a view whose
/// place on screen is not a whole-pixel translation of its cache is composited through its transform
/// with bilinear filtering, and damages the box around where it was and where it is.
///
/// It is also each screen's frame clock: while an animation runs on a screen's windows or a display link
/// of the screen is active, every frame that lands at a vblank (`framePresented(on:at:)` with the vblank
/// time, on DRM CRTCs with vblank interrupts) starts the next one at once. Otherwise (no change to show,
/// an output without vblank times, whose flips may complete at once) a timer a refresh period after the
/// last tick does; on such outputs frames that changes make keep a period apart too. When nothing
/// animates and nothing changes, nothing is scheduled.
@MainActor
public final class Compositor: WindowChangeObserver {
    public let application: Application
    public let output: any FrameOutput
    /// Skip what opaque views cover. Off only to prove in tests and benchmarks that it changes nothing.
    public var isOpaqueCullingEnabled = true
    /// Called after a frame was composed for a screen (the runtime uses it for sd_notify READY=1).
    public var frameObserver: ((Screen) -> Void)?
    /// Called when a frame of a screen is on the display (after its page flip), with the screen and the
    /// flip's vblank time when the output knows it (CLOCK_MONOTONIC seconds).
    public var presentationObserver: ((Screen, TimeInterval?) -> Void)?

    private var states: [ObjectIdentifier: ScreenState] = [:]
    private var frameScheduled = false
    /// The scroll views found by the walk of the frame being composed.
    private var scrollRegions: [ScrollRegion] = []
    /// Whether a scroll moves what stays in view instead of painting it again. Off only to prove in tests
    /// that it changes nothing.
    public var isScrollCopyEnabled = true
    /// Whether a view's cache holds only the box around what its `draw(_:)` marked. Off only to prove in
    /// tests that it changes nothing.
    public var isCacheCroppingEnabled = true
    /// How many buffers' worth of damage to remember; an older buffer is repainted whole.
    static let damageRingLength = 4
    private static let log = Logger(label: "kiosk.compositor")

    public init(output: any FrameOutput, application: Application = .shared) {
        self.output = output
        self.application = application
        application.changeObserver = self
        for screen in application.connectedScreens { scheduleFrame(for: screen) }
    }

    // MARK: Queries (tests, snapshots, benchmarks)

    /// Frames composed for `screen` so far.
    public func framesComposed(on screen: Screen) -> Int { states[ObjectIdentifier(screen)]?.framesComposed ?? 0 }

    /// The logical-size shadow of `screen` (what apps see, before rotation).
    public func shadow(of screen: Screen) -> Bitmap? { states[ObjectIdentifier(screen)]?.shadow }

    /// What `screen` shows as scanned out: its last composed frame in physical pixels, turned by the
    /// rotation it was composed with, made from the compositor's own RAM (the shadow through the rotation,
    /// or the cached-memory buffer an unrotated frame was painted into), never read back from scanout
    /// memory, which is slow to read and may already hold a frame in flight. nil before the first frame and
    /// while the screen is off or disconnected.
    public func scanoutImage(of screen: Screen) -> Bitmap? {
        guard screen.isConnected, screen.powerState == .on, let state = states[ObjectIdentifier(screen)], state.framesComposed > 0
        else { return nil }
        let rotation = state.composedRotation
        if let shadow = state.shadow {
            let (width, height) = rotation.swapsAxes ? (shadow.height, shadow.width) : (shadow.width, shadow.height)
            let image = Bitmap(width: width, height: height, format: .xrgb8888)
            image.copy(from: shadow, rotation: rotation, region: Region(image.bounds))
            return image
        }
        guard let buffer = state.inPlaceBuffer, rotation == .normal else { return nil }
        let image = Bitmap(width: buffer.width, height: buffer.height, format: .xrgb8888)
        image.copy(from: buffer, rotation: .normal, region: Region(image.bounds))
        return image
    }

    /// The frame-clock tick the last frame shown on `screen` was made for (the time its animations
    /// were advanced from), or nil when a change made it (no animation, no display link). The trace
    /// writes it with the frame's flip: the gap from one flip to the next frame's tick is the clock's own,
    /// the rest of a frame's interval is composing and flipping.
    public func tick(ofLastFrameOn screen: Screen) -> TimeInterval? { states[ObjectIdentifier(screen)]?.frameTick }

    /// When the last frame shown on `screen` was composed (its tick, for a frame the clock made; the
    /// application clock's time otherwise): on outputs without vblank times two of these are at least a
    /// refresh period apart (the trace writes it with the frame's flip).
    public func compositionTime(ofLastFrameOn screen: Screen) -> TimeInterval? {
        states[ObjectIdentifier(screen)]?.lastFrameStart
    }

    /// Whether a frame is waiting for `framePresented(on:)`.
    public func isFrameInFlight(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.inFlight ?? false }

    /// Whether `screen` has changes not yet composed.
    public func needsFrame(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.needsFrame ?? false }

    // MARK: Scheduling

    /// The output finished showing the last frame of `screen`; the next one may start. `timestamp` is the
    /// vblank time it was shown at (DRM's page-flip event on a CRTC with vblank interrupts); nil for outputs
    /// that have none, whose flips complete whenever they do.
    public func framePresented(on screen: Screen, at timestamp: TimeInterval? = nil) {
        guard let state = states[ObjectIdentifier(screen)] else { return }
        presentationObserver?(screen, timestamp)
        state.inFlight = false
        state.presentsAtVBlank = timestamp != nil
        // Without a vblank time the frame counts as shown when it was due: a period after its tick.
        let shown = timestamp ?? max(application.clock.now, (state.lastTick ?? -.infinity) + refreshPeriod(of: screen))
        application.animator.frameShown(on: screen, at: shown)
        if needsTicks(screen) {
            // Animating: a vblank is the frame clock, so the frames lock onto the display's refresh even
            // when the first tick came from the timer at another phase. Without a vblank time, the timer
            // ticks a period after the last tick: an output whose flips complete at once (DRM drivers
            // without vblank interrupts, fbdev, headless) would otherwise draw as fast as the CPU allows.
            if let timestamp, timestamp > state.lastTick ?? -.infinity {
                tick(screen, at: timestamp)
            } else {
                ensureTicking(screen)
            }
        } else if state.needsFrame {
            scheduleRun()
        }
    }

    // MARK: Frame clock

    /// The time between two frames of `screen` (its mode's refresh; 60 Hz when it has none).
    public func refreshPeriod(of screen: Screen) -> TimeInterval {
        guard let rate = screen.currentMode?.refreshRate, rate > 0 else { return 1.0 / 60 }
        return 1 / rate
    }

    /// Whether `screen` needs a frame per refresh: it is on, and an animation moves on it or a display link
    /// follows it. A screen that is off shows nothing: a repeating animation must not wake the kiosk every
    /// refresh all night (it goes on where it would be when the screen comes on).
    private func needsTicks(_ screen: Screen) -> Bool {
        guard screen.powerState == .on else { return false }
        return application.displayLinks.contains { $0.screen === screen && $0.isActive }
            || application.animator.isAnimating(on: screen)
    }

    /// Whether a frame-clock tick is waiting on its timer (tests: after an animation ends, none is).
    public func isTickScheduled(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.tickTimer != nil }

    /// Makes sure a tick will come for `screen` if it needs one: after the frame in flight lands, or from
    /// the refresh-period timer, not earlier than one period after the last tick.
    private func ensureTicking(_ screen: Screen) {
        guard screen.isConnected, needsTicks(screen) else { return }
        let state = state(for: screen)
        guard state.tickTimer == nil, !state.inFlight else { return }
        let (now, period) = (application.clock.now, refreshPeriod(of: screen))
        var deadline = max(now, (state.lastTick ?? -.infinity) + period)
        if let last = state.lastTick, now > last + period, now < last + 3 * period {
            // A frame that took longer than a period: the next tick keeps to the refresh's beat, as a
            // display shows a late frame at its next refresh, instead of following at once.
            deadline = last + period * ((now - last) / period).rounded(.up)
        }
        if let earliest = earliestNextFrame(on: screen, state: state) {
            // The last frame may be one a change made after the last tick: the next a period after it.
            deadline = max(deadline, earliest)
        }
        state.tickTimer = application.clock.schedule(at: deadline) { [weak self, weak screen] in
            guard let self, let screen, let state = self.states[ObjectIdentifier(screen)] else { return }
            state.tickTimer = nil
            if let earliest = self.earliestNextFrame(on: screen, state: state), earliest > deadline + 1e-9 {
                // A change made a frame after this tick was set (a late flip landed, and the run loop
                // composed what waited): the tick moves to a period after that frame.
                self.ensureTicking(screen)
                return
            }
            self.tick(screen, at: deadline)
        }
    }

    /// One frame of the frame clock: display links are called and animations move to the time the frame
    /// will be shown (`timestamp` plus a period), then the frame is composed.
    private func tick(_ screen: Screen, at timestamp: TimeInterval) {
        let state = state(for: screen)
        state.tickTimer?.cancel()
        state.tickTimer = nil
        let period = refreshPeriod(of: screen)
        state.lastTick = timestamp
        let target = timestamp + period
        for link in application.displayLinks where link.screen === screen {
            link.frame(timestamp: timestamp, target: target, period: period)
        }
        application.animator.advance(to: target, frameOf: screen)
        if state.needsFrame, !state.inFlight, screen.powerState == .on {
            composeFrame(on: screen, state: state, reportedDamage: nil, tick: timestamp)
        }
        // No frame went out (nothing changed, or the output showed it at once): what it would have shown
        // counts as shown at its time, and the timer ticks next.
        if !state.inFlight {
            application.animator.frameShown(on: screen, at: target)
            ensureTicking(screen)
        }
    }

    /// Composes now every screen that has changes and no frame in flight (tests call it directly; the run
    /// loop calls `composePendingFrames(paced: true)` once per turn after changes).
    public func composePendingFrames() { composePendingFrames(paced: false) }

    /// `paced`: a screen whose output has no vblank times (its flips complete whenever they do) gets no
    /// frame sooner than a refresh period after its last one: its changes wait for the frame clock's next
    /// tick, or for a timer at that time, as a display with vblank interrupts would make them wait for its
    /// next vblank. Without this a stream of changes (a finger moving) made frames as fast as they could
    /// be composed: 8.8 to 11 ms apart on virtio-gpu at 75 Hz.
    func composePendingFrames(paced: Bool) {
        frameScheduled = false
        for screen in application.connectedScreens {
            let state = state(for: screen)
            guard state.needsFrame, !state.inFlight, screen.powerState == .on else { continue }
            if paced, holdsBack(screen, state: state) { continue }
            composeFrame(on: screen, state: state, reportedDamage: nil)
        }
    }

    /// Whether `screen`'s changes wait for a period to pass since its last frame (outputs without vblank
    /// times); makes sure something composes them then: the tick already scheduled, or a timer.
    private func holdsBack(_ screen: Screen, state: ScreenState) -> Bool {
        guard let due = earliestNextFrame(on: screen, state: state), application.clock.now < due else { return false }
        if state.tickTimer == nil, state.paceTimer == nil {
            state.paceTimer = application.clock.schedule(at: due) { [weak self, weak state] in
                state?.paceTimer = nil
                self?.composePendingFrames(paced: true)
            }
        }
        return true
    }

    /// On an output without vblank times, the earliest a next frame of `screen` may be composed: a refresh
    /// period after the last one shown. nil where flips have vblank times (they pace the frames) and
    /// before the first frame.
    private func earliestNextFrame(on screen: Screen, state: ScreenState) -> TimeInterval? {
        guard !state.presentsAtVBlank, let start = state.lastFrameStart else { return nil }
        return start + refreshPeriod(of: screen)
    }

    /// Repaints the whole of `screen` on the next frame. The buffer the last frame was painted into is
    /// forgotten (`scanoutImage` is nil until the next frame): the backends ask for this when they change
    /// a screen's buffers (a new mode, a resumed session), and DRM's are unmapped when they go.
    public func setNeedsFullRepaint(_ screen: Screen) {
        let state = state(for: screen)
        state.fullRepaint = true
        state.inPlaceBuffer = nil
        scheduleFrame(for: screen)
    }

    /// Composes `screen` now, bringing every view's cache and placement up to date, but painting only
    /// `damage` (logical pixels), whatever really changed: the "lying damage" check of wlroots and weston,
    /// which proves that nothing outside the damage is ever touched.
    public func composeFrame(on screen: Screen, reportingOnly damage: Region) {
        composeFrame(on: screen, state: state(for: screen), reportedDamage: damage)
    }

    private func scheduleFrame(for screen: Screen) {
        guard screen.isConnected else { return }
        state(for: screen).needsFrame = true
        scheduleRun()
    }

    private func scheduleRun() {
        guard !frameScheduled else { return }
        frameScheduled = true
        // Once per run-loop turn, after the changes of this turn: many changes make one frame.
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.composePendingFrames(paced: true) }
        }
    }

    private func state(for screen: Screen) -> ScreenState {
        if let state = states[ObjectIdentifier(screen)] { return state }
        let state = ScreenState()
        states[ObjectIdentifier(screen)] = state
        return state
    }

    // MARK: WindowChangeObserver

    func subtreeDidChange(_ view: View, in window: Window) { scheduleFrame(for: window.screen) }
    func subtreeWillLeave(_ view: View, in window: Window) { scheduleFrame(for: window.screen) }
    func contentDidChange(in view: View, rect: Rect, window: Window) { scheduleFrame(for: window.screen) }
    func frameRequested(by window: Window) { scheduleFrame(for: window.screen) }
    func framesRequested() { for screen in application.connectedScreens { ensureTicking(screen) } }

    func screenDidChange(_ screen: Screen) {
        guard screen.isConnected else {
            // Its buffers belong to the backend; the shadow and placements go. Nothing is scheduled.
            states[ObjectIdentifier(screen)]?.tickTimer?.cancel()
            states[ObjectIdentifier(screen)]?.paceTimer?.cancel()
            states[ObjectIdentifier(screen)] = nil
            return
        }
        setNeedsFullRepaint(screen)
    }

    // MARK: Composing a frame

    /// `tick`: the frame-clock tick the frame is made for; nil when a change makes it.
    private func composeFrame(on screen: Screen, state: ScreenState, reportedDamage: Region?, tick: TimeInterval? = nil) {
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
        let layers = collectLayers(of: windows, damage: &damage)
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
        guard !changed.isEmpty else { return }

        guard let buffer = output.nextBuffer(for: screen) else {
            // The output cannot take a frame now (e.g. the session is paused): paint it all when it can.
            state.fullRepaint = true
            state.damageRing.removeAll()
            return
        }
        let physicalRect = PixelRect(x: 0, y: 0, width: Int32(mode.width), height: Int32(mode.height))
        let physicalDamage = changed.transformed(by: screen.rotation, logicalSize: logical)
        // What this buffer missed: the damage of every frame since it was last drawn (nil: it is new or
        // older than the ring remembers), then this frame's.
        var missed: Region? = nil
        if buffer.age > 0, buffer.age - 1 <= state.damageRing.count {
            missed = state.damageRing.prefix(buffer.age - 1).reduce(into: Region()) { $0.formUnion($1) }
        }
        let bufferDamage = missed.map { physicalDamage.union($0) } ?? Region(physicalRect)
        if output.buffersAreCachedMemory && screen.rotation == .normal {
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
            buffer.bitmap.copy(from: state.shadow!, rotation: screen.rotation, region: bufferDamage)
        }
        state.composedRotation = screen.rotation
        state.damageRing.insert(physicalDamage, at: 0)
        if state.damageRing.count > Self.damageRingLength { state.damageRing.removeLast() }
        state.inFlight = true
        state.framesComposed += 1
        state.lastFrameStart = started
        state.frameTick = tick
        output.present(buffer, for: screen, damage: bufferDamage)
        frameObserver?(screen)
    }

    // MARK: Scroll copies

    /// For each scroll view that only scrolled since the last frame (same place on the screen, its own
    /// layer one opaque colour, an offset changed by whole pixels), the pixels that stay in view are moved
    /// by the offset's change instead of composited again, and only what that cannot give is damaged: the
    /// strip that came into view, the content that did not simply move with the offset (changed, new or
    /// gone views, the indicators, anything whose stacking changed) where it was and where it is, and the
    /// layers in front of the scroll view over it (a copy moves their pixels too). Views that moved exactly
    /// with the offset damage nothing. The plan's `moved` is what the copies change (for the output).
    private func planScrollCopies(layers: [Layer], state: ScreenState, screenRect: PixelRect) -> ScrollPlan {
        var plan = ScrollPlan()
        lazy var shownNow = Set(layers.map { ObjectIdentifier($0.view) })
        for region in scrollRegions {
            guard let old = state.scrolls[region.view], old.rect == region.rect else { continue }
            let deltaX = region.origin.x - old.origin.x, deltaY = region.origin.y - old.origin.y
            // Only what is on the screen has pixels to move.
            let rect = region.rect.intersection(screenRect)
            guard deltaX != 0 || deltaY != 0, deltaX.rounded() == deltaX, deltaY.rounded() == deltaY,
                abs(deltaX) < Double(rect.width), abs(deltaY) < Double(rect.height)
            else { continue }
            let dx = Int32(deltaX), dy = Int32(deltaY)
            // New pixel p is old pixel p + (dx, dy) where that stays inside the scroll view.
            let destination = rect.intersection(rect.offsetBy(dx: -dx, dy: -dy))
            var damage = Region(rect).subtracting(destination)
            // Old and new layers of the scroll view's content, matched by view.
            let subtree = region.layers.dropFirst()
            let oldContent = old.layers.dropFirst()
            var previousOldIndex = -1
            for index in subtree {
                let layer = layers[index]
                let id = ObjectIdentifier(layer.view)
                let new = layer.placement
                if let before = state.placements[id], !oldContent.contains(before.index) {
                    // It joined the content from elsewhere: the main pass damages where it was and where it
                    // is; here, what the copy moved of it (it may have been in front of the scroll view).
                    damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy))
                    continue
                }
                plan.handled.insert(id)
                if let before = state.placements[id] {
                    if before.movedExactly(by: -dx, -dy, to: new), before.index > previousOldIndex {
                        previousOldIndex = before.index
                        continue
                    }
                    damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy))
                    damage.formUnion(before.visibleRect)
                }
                damage.formUnion(new.visibleRect)
            }
            // Content of the last frame that is gone: from the screen, or elsewhere now (the main pass damages
            // where it is, and where it was outside the scroll view).
            let newIDs = Set(subtree.map { ObjectIdentifier(layers[$0].view) })
            for (id, before) in state.placements where oldContent.contains(before.index) && !newIDs.contains(id) {
                if !shownNow.contains(id) { plan.handled.insert(id) }
                damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy))
                damage.formUnion(before.visibleRect)
            }
            // Whatever is in front of the scroll view over it, now or in the last frame.
            for layer in layers[region.layers.upperBound...] where !layer.placement.visibleRect.intersection(rect).isEmpty {
                damage.formUnion(layer.placement.visibleRect)
            }
            for (_, before) in state.placements where before.index >= old.layers.upperBound {
                let over = before.visibleRect.intersection(rect)
                guard !over.isEmpty else { continue }
                damage.formUnion(over)
                damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy).intersection(rect))
            }
            plan.damage.formUnion(damage.intersection(rect))
            plan.moved.formUnion(rect)
            plan.copies.append(ScrollCopy(destination: destination, dx: dx, dy: dy))
        }
        return plan
    }

    /// Walks the windows back to front and their views in tree order, redrawing the caches of views that
    /// asked for it (their dirty rects join `damage`), and returns the layers to paint.
    private func collectLayers(of windows: [Window], damage: inout Region) -> [Layer] {
        var layers: [Layer] = []
        for window in windows {
            walk(window, toScreen: window.shownTransformToSuperview, clip: nil, alpha: 1, into: &layers, damage: &damage)
        }
        return layers
    }

    /// `toScreen` maps the view's coordinates (its presentation values) onto the screen.
    private func walk(
        _ view: View, toScreen: AffineTransform, clip: PixelRect?, alpha: Double,
        into layers: inout [Layer], damage: inout Region
    ) {
        guard !view.isHidden else { return }
        let alpha = alpha * view.shownAlpha
        guard alpha > 0 else { return }
        let shown = view.shownBounds, model = view.bounds
        // The content is drawn at the model size; the shown bounds stretch it (UIKit's default content
        // mode, scale to fill), so a size animation never redraws.
        let scaleX = model.width > 0 ? shown.width / model.width : 1
        let scaleY = model.height > 0 ? shown.height / model.height : 1
        let contentToScreen = AffineTransform(scaleX: scaleX, y: scaleY)
            .concatenating(AffineTransform(translationX: shown.minX, y: shown.minY)).concatenating(toScreen)
        // Clamped: a view parked far off the screen (or with a non-finite frame) has no pixels to show,
        // and must not trap on the way to pixman's Int32 coordinates.
        let pixelSize = Size(width: model.width.rounded(.up), height: model.height.rounded(.up))
        let whole = PixelRect(enclosing: Rect(size: pixelSize))
        let size = (width: whole.width, height: whole.height)
        let rect: PixelRect
        let transform: AffineTransform?
        if contentToScreen.isTranslation {
            // Pixel positions: views land on whole pixels, as UIKit rounds to the screen's pixel grid.
            let x = contentToScreen.tx.rounded(), y = contentToScreen.ty.rounded()
            rect =
                x.isFinite && y.isFinite
                ? PixelRect(enclosing: Rect(x: x, y: y, width: pixelSize.width, height: pixelSize.height)) : .zero
            transform = nil
        } else {
            rect = PixelRect(enclosing: Rect(x: 0, y: 0, width: model.width, height: model.height).applying(contentToScreen))
            transform = contentToScreen
        }
        let content = render(view, at: rect, size: size, transform: transform, clip: clip, damage: &damage)
        // A scroll view whose own layer is one opaque colour over its whole clipped rect, not transformed or
        // faded: what it shows can be moved by a scroll (`ScrollRegion`).
        let scrollStart = layers.count
        let scrolls =
            view is ScrollView && transform == nil && alpha >= 1 && view.clipsToBounds && content.isOpaqueFill
            && contentToScreen.tx.rounded() == contentToScreen.tx && contentToScreen.ty.rounded() == contentToScreen.ty
        if !content.isEmpty {
            let contentIsOpaque = view.isOpaque || content.isOpaqueFill
            let opaque = alpha >= 1 && transform == nil && contentIsOpaque
            // A cache cropped to what the view drew lands where that part of the view is.
            var (layerRect, layerTransform, layerSize) = (rect, transform, model.size)
            if case .bitmap(let bitmap) = content, view.rendering.isCropped {
                let origin = view.rendering.origin
                layerSize = Size(width: Double(bitmap.width), height: Double(bitmap.height))
                if let transform {
                    let cropToScreen = AffineTransform(translationX: Double(origin.x), y: Double(origin.y)).concatenating(transform)
                    layerTransform = cropToScreen
                    layerRect = PixelRect(enclosing: Rect(size: layerSize).applying(cropToScreen))
                } else {
                    layerRect = PixelRect(
                        x: rect.x + origin.x, y: rect.y + origin.y, width: Int32(bitmap.width), height: Int32(bitmap.height))
                }
            }
            layers.append(
                Layer(
                    view: view, content: content, size: layerSize, contentIsOpaque: contentIsOpaque,
                    placement: Placement(
                        rect: layerRect, clip: clip, alpha: alpha, content: content.identity,
                        index: layers.count, opaque: opaque, transform: layerTransform)))
        }
        guard !view.subviews.isEmpty else { return }
        var childClip = clip
        if view.clipsToBounds {
            // Under a rotation the clip is the box around the turned bounds (pixman clips to rectangles).
            let bounds = transform == nil ? rect : PixelRect(enclosing: shown.applying(toScreen))
            childClip = clip.map { $0.intersection(bounds) } ?? bounds
        }
        if let childClip, childClip.isEmpty { return }
        for subview in view.subviews {
            walk(
                subview, toScreen: subview.shownTransformToSuperview.concatenating(toScreen), clip: childClip, alpha: alpha,
                into: &layers, damage: &damage)
        }
        if scrolls, let childClip {
            scrollRegions.append(
                ScrollRegion(
                    view: ObjectIdentifier(view), rect: childClip, origin: view.shownBounds.origin, layers: scrollStart..<layers.count))
        }
    }

    /// Brings `view`'s cached content up to date and says what to paint for it.
    /// `rect` is where it lands on screen (the box around it when `transform` is given: the map from its
    /// cache's pixels to the screen); `size` is the cache's size.
    private func render(
        _ view: View, at rect: PixelRect, size: (width: Int32, height: Int32), transform: AffineTransform?,
        clip: PixelRect?, damage: inout Region
    ) -> LayerContent {
        let dirty = view.takeDirtyRect()
        var sizeChanged = false
        if view.rendering.cache != nil { sizeChanged = view.rendering.drawnSize != PixelSize(size) }
        // Most views are clean in most frames (a scroll moves 100 of them): their content is read in place,
        // without copying the layer state out and back (a retain and release of the cache per copy).
        if dirty.isNull, !sizeChanged, view.rendering.isValid { return view.rendering.content }
        var layer = view.rendering
        defer { view.rendering = layer }

        guard size.width > 0, size.height > 0 else {
            layer.cache = nil
            layer.content = .none
            layer.isValid = true
            return .none
        }
        var redraw = dirty.isNull ? view.bounds : dirty
        let whole = dirty.isNull || dirty.contains(view.bounds)
        if layer.isCropped, !whole {
            // A view that redraws parts of itself (a canvas) keeps a cache of its whole size from now on,
            // so that each part is drawn alone.
            layer.drawsInParts = true
        }
        let squareAndBorderless = view.borderWidth <= 0 && view.cornerRadius <= 0
        let croppable = isCacheCroppingEnabled && squareAndBorderless && !view.isOpaque && !layer.drawsInParts
        // A cache cropped to what was drawn has no room for a change elsewhere: it is drawn anew, as is a
        // view drawn whole that can be cropped.
        let fresh = layer.cache == nil || sizeChanged || !layer.isValid || layer.isCropped || (whole && croppable)
        if fresh {
            layer.cache = nil
            layer.origin = (0, 0)
            redraw = view.bounds
        }
        // Dirty rect in the cache's pixels (the cache's origin is the bounds' origin).
        let local = Rect(
            x: redraw.minX - view.bounds.minX, y: redraw.minY - view.bounds.minY,
            width: redraw.width, height: redraw.height
        ).integral
        let full = Rect(x: 0, y: 0, width: view.bounds.width, height: view.bounds.height)
        let background = view.shownBackgroundColor.flatMap { $0.alpha > 0 ? $0 : nil }
        let cornerRadius = view.cornerRadius
        let prepare = { (context: DrawingContext) in
            context.clip(to: local)
            if !fresh { context.clear(local) }  // a new bitmap is clear already
            if let background {
                if cornerRadius > 0 {
                    context.fillRoundedRect(full, radius: cornerRadius, color: background)
                } else {
                    context.fill(full, color: background)
                }
            }
        }
        let context: DrawingContext
        if let cache = layer.cache {
            context = DrawingContext(bitmap: cache)
            prepare(context)
        } else {
            let (width, height) = (Int(size.width), Int(size.height))
            let makeSized = { Bitmap(width: $0, height: $1, format: .argb32Premultiplied) }
            let make = { makeSized(width, height) }
            if croppable {
                // The bitmap is made only if draw(_:) draws something, and only as large as what it
                // marks: a view that only has a background colour (a window, a container the size of the
                // screen) is filled straight into the frame, and a label the width of the screen caches
                // the box around its text.
                context = DrawingContext(
                    croppingTo: width, height: height,
                    make: makeSized, prepare: prepare)
            } else if squareAndBorderless {
                context = DrawingContext(makingBitmapOnFirstDrawing: make, prepare: prepare)
            } else {
                context = DrawingContext(bitmap: make())
                prepare(context)
            }
        }
        context.save()
        context.translateBy(x: -view.bounds.minX, y: -view.bounds.minY)
        let previous = DrawingContext.current
        DrawingContext.current = context
        view.draw(Rect(x: local.minX + view.bounds.minX, y: local.minY + view.bounds.minY, width: local.width, height: local.height))
        DrawingContext.current = previous
        context.restore()
        if view.borderWidth > 0 {
            context.strokeRoundedRect(full, radius: cornerRadius, lineWidth: view.borderWidth, color: view.borderColor)
        }
        let cropped = context.isCropping ? context.finishCropping() : nil
        layer.drawnSize = PixelSize(size)
        guard context.hasBitmap || cropped != nil else {
            layer.content = background.map { .fill($0) } ?? .none
            layer.isValid = true
            damage.formUnion(clipped(rect, to: clip))
            return layer.content
        }
        context.flush()
        if let cropped {
            layer.cache = cropped.bitmap
            layer.origin = (Int32(cropped.x), Int32(cropped.y))
        } else {
            layer.cache = context.bitmap
        }
        layer.isValid = true
        layer.content = .bitmap(layer.cache!)
        let dirtyOnScreen =
            transform.map { PixelRect(enclosing: local.applying($0)) }
            ?? PixelRect(
                x: rect.x + Int32(local.minX), y: rect.y + Int32(local.minY),
                width: Int32(local.width), height: Int32(local.height))
        damage.formUnion(clipped(dirtyOnScreen, to: clip))
        return layer.content
    }

    private func clipped(_ rect: PixelRect, to clip: PixelRect?) -> PixelRect {
        clip.map { rect.intersection($0) } ?? rect
    }

    /// Paints `damage` of the shadow: front to back to find what opaque layers hide, then back to front.
    /// Opaque content at the layer's alpha over black, without a black fill first: a colour is filled
    /// faded; a bitmap is copied as it is and darkened by the alpha (`Bitmap.darken`: black at the
    /// complementary alpha OVER it). Both are pixman fast paths (a blit, then `over_n_8888`), and the
    /// result is pixel for pixel the black fill and the bitmap OVER it through a mask of the alpha.
    /// (SRC through the mask, one pass, has no fast path: 81 M instructions a 1920x1080 cross-fade frame
    /// against 46.6 M for the fill and OVER.)
    private func paintFaded(_ layer: Layer, into shadow: Bitmap, region: Region) {
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

    /// Told the region each paint composites (tests: a scroll paints only what came into view).
    var paintObserver: ((Region) -> Void)?

    private func paint(_ layers: [Layer], into shadow: Bitmap, damage: Region) {
        paintObserver?(damage)
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
        var overBlack = [Region?](repeating: nil, count: layers.count)
        for (index, layer) in layers.enumerated() where !regions[index].isEmpty && !untouched.isEmpty && !layer.content.isEmpty {
            let first = regions[index].intersection(untouched)
            guard !first.isEmpty else { continue }
            if layer.contentIsOpaque, layer.placement.transform == nil, !layer.placement.opaque {
                overBlack[index] = first
            } else {
                black.formUnion(first)
            }
            untouched = untouched.subtracting(regions[index])
        }
        black.formUnion(untouched)
        if !black.isEmpty { shadow.fill(.black, operation: .source, in: black) }
        for (index, (layer, var region)) in zip(layers, regions).enumerated() where !region.isEmpty {
            if let first = overBlack[index] {
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

extension DrawingContext {
    /// The context a view's `draw(_:)` draws into (as `UIGraphicsGetCurrentContext()`); nil outside drawing.
    @MainActor public static var current: DrawingContext?
}

/// A compositor's cached rendering of one view.
struct LayerState {
    var cache: Bitmap?
    var content: LayerContent = .none
    /// False until the first render, and after anything that invalidates the whole cache.
    var isValid = false
    /// The view's size in pixels when the cache was drawn.
    var drawnSize = PixelSize(width: 0, height: 0)
    /// Where the cache's top-left pixel sits in the view's content: (0, 0) unless the cache was cropped to
    /// what `draw(_:)` marked.
    var origin: (x: Int32, y: Int32) = (0, 0)
    /// The view redrew a part of itself while its cache was cropped: its caches are the whole size since.
    var drawsInParts = false

    /// Whether the cache holds only a part of the view (the box around what its drawing marked).
    var isCropped: Bool {
        guard let cache else { return false }
        return origin != (0, 0) || PixelSize(width: Int32(cache.width), height: Int32(cache.height)) != drawnSize
    }
}

/// A size in whole pixels.
struct PixelSize: Equatable {
    var width: Int32
    var height: Int32

    init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    init(_ size: (width: Int32, height: Int32)) {
        self.init(width: size.width, height: size.height)
    }
}

enum LayerContent {
    case none
    case fill(Color)
    case bitmap(Bitmap)

    var isEmpty: Bool { if case .none = self { true } else { false } }
    var isOpaqueFill: Bool { if case .fill(let color) = self { color.isOpaque } else { false } }

    /// What a placement compares: the fill colour, or the bitmap object.
    var identity: ContentIdentity {
        switch self {
        case .none: .none
        case .fill(let color): .fill(color)
        case .bitmap(let bitmap): .bitmap(ObjectIdentifier(bitmap))
        }
    }
}

enum ContentIdentity: Equatable {
    case none
    case fill(Color)
    case bitmap(ObjectIdentifier)
}

/// A scroll view of a frame: its clipped rect on the screen, its bounds' origin (the content offset) and
/// the range of the frame's layers that are its own and its content's.
struct ScrollRegion {
    let view: ObjectIdentifier
    let rect: PixelRect
    let origin: Point
    let layers: Range<Int>
}

/// Pixels a scroll moves within the frame: each of `destination` takes the one `(dx, dy)` away.
struct ScrollCopy {
    let destination: PixelRect
    let dx: Int32
    let dy: Int32
}

/// What the scroll copies of a frame do: the copies, what they leave to paint, the layers whose damage
/// they account for, and all they change.
struct ScrollPlan {
    var copies: [ScrollCopy] = []
    var damage = Region()
    var handled: Set<ObjectIdentifier> = []
    var moved = Region()
}

/// Where a view was painted in a frame. A difference between two frames damages both places.
struct Placement: Equatable {
    var rect: PixelRect
    var clip: PixelRect?
    var alpha: Double
    var content: ContentIdentity
    /// Position in the frame's back-to-front order (re-stacking is a change of order among the layers
    /// of both frames, not of this number: see `isPainted(like:)`).
    var index: Int
    var opaque: Bool
    /// The map from the content's pixels to the screen when it is not a whole-pixel translation (then
    /// `rect` is the box around the transformed content).
    var transform: AffineTransform?

    var visibleRect: PixelRect { clip.map { rect.intersection($0) } ?? rect }

    /// Whether `other` paints the same pixels in the same place, wherever each is in its frame's order.
    func isPainted(like other: Placement) -> Bool {
        var other = other
        other.index = index
        return self == other
    }

    /// Whether `new` is this placement moved by `(dx, dy)` and nothing else (the same content, clip and
    /// alpha; its position in the frame's order may differ when views before it came or went).
    func movedExactly(by dx: Int32, _ dy: Int32, to new: Placement) -> Bool {
        transform == nil && new.transform == nil && rect.offsetBy(dx: dx, dy: dy) == new.rect && clip == new.clip
            && alpha == new.alpha && content == new.content && opaque == new.opaque
    }
}

struct Layer {
    let view: View
    let content: LayerContent
    /// The content's size in points (its model bounds): what a transform maps.
    let size: Size
    /// Every pixel of the content is opaque (declared `isOpaque`, or an opaque colour), whatever the
    /// layer's alpha: faded over the black background it can be written with SRC and the alpha as mask.
    let contentIsOpaque: Bool
    let placement: Placement
}

@MainActor
final class ScreenState {
    /// The logical size last composed; a change repaints everything.
    var size = PixelRect.zero
    var shadow: Bitmap?
    /// The output's buffer the last frame was painted into in place (cached memory, no shadow); nil with a shadow.
    var inPlaceBuffer: Bitmap?
    /// The rotation the last frame was composed with.
    var composedRotation = Rotation.normal
    var placements: [ObjectIdentifier: Placement] = [:]
    /// The scroll views of the last frame, by view.
    var scrolls: [ObjectIdentifier: ScrollRegion] = [:]
    /// Damage of the frames before, newest first, in physical pixels.
    var damageRing: [Region] = []
    var needsFrame = false
    var fullRepaint = true
    var inFlight = false
    var framesComposed = 0
    /// The frame clock: the time of the last tick, and the timer for the next when no flip will bring it.
    var lastTick: TimeInterval?
    var tickTimer: FrameTimer?
    /// The tick the last frame shown was made for; nil when a change made it.
    var frameTick: TimeInterval?
    /// When the last frame shown was composed (its tick, for a frame the clock made).
    var lastFrameStart: TimeInterval?
    /// Whether the output said when its last frame went on screen (a vblank time): its flips then pace
    /// the frames. Without (virtio-gpu, fbdev, headless) flips complete whenever they do, and the frame
    /// clock keeps frames a refresh period apart.
    var presentsAtVBlank = true
    /// The timer that composes the changes held back to keep a period after the last frame.
    var paceTimer: FrameTimer?
}
