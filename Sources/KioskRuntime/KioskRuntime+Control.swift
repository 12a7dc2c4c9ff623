import Dispatch
import Glibc
import Graphics
import KioskBackend
import KioskConfig
import KioskKit
import Logging

/// The control socket's commands (`ControlServer` reads the lines; this answers them): what `kiosk
/// status`, `power`, `brightness`, `screenshot` and `reload` ask the running kiosk. Every answer is one
/// JSON object with `ok`; a refusal has `error`, which names what was wrong and what would be valid.
extension KioskRuntime {
    /// The commands, each with the keys its requests may have besides `command` (a misspelt key is refused
    /// rather than ignored: `{"command":"power","state":"off","scren":"HDMI-A-1"}` must not turn off every
    /// screen).
    static let controlCommands: [(name: String, keys: [String])] = [
        ("status", []), ("power", ["state", "screen"]), ("brightness", ["value", "screen"]), ("screenshot", ["screen"]),
        ("reload", []),
    ]

    /// Answers one request (a screenshot later: its PNG is made off the main queue).
    func answer(_ request: ControlRequest) -> ControlReply {
        let result: Result<JSONLine, ControlServer.Refusal>
        if let command = Self.controlCommands.first(where: { $0.name == request.command }) {
            if let unknown = request.members.first(where: { $0.key != "command" && !command.keys.contains($0.key) }) {
                let valid = command.keys.isEmpty ? "it takes none" : "it takes " + command.keys.joined(separator: ", ")
                result = .failure(.init("\(command.name): unknown key \"\(unknown.key)\"; \(valid)"))
            } else {
                switch command.name {
                case "status": result = .success(status())
                case "power": result = power(request)
                case "brightness": result = brightness(request)
                case "screenshot":
                    switch screenshot(request) {
                    case .success(let reply): return reply
                    case .failure(let refusal): result = .failure(refusal)
                    }
                default: result = reloadAnswer()
                }
            }
        } else {
            let names = Self.controlCommands.map(\.name).joined(separator: ", ")
            result = .failure(.init("unknown command \"\(request.command)\"; the commands are \(names)"))
        }
        // The trace names the command only when it is one (a client's text could be anything).
        let known = Self.controlCommands.contains { $0.name == request.command }
        switch result {
        case .success(let line):
            trace?.recordControl(command: known ? request.command : "unknown", ok: true)
            return .now(line)
        case .failure(let refusal):
            trace?.recordControl(command: known ? request.command : "unknown", ok: false)
            return .now(JSONLine([("ok", .bool(false)), ("error", .string(refusal.message))] + refusal.extra))
        }
    }

    /// Opens the control socket: at the path the configuration names, else (`auto`) at the first place of
    /// `ControlSocketPlace` that applies to this process, which the clients look through in the same order.
    /// One that cannot be opened is logged (nil: the kiosk runs without it).
    func makeControlServer() -> ControlServer? {
        let path: String
        let group: String?
        let why: String
        switch configuration.controlSocket {
        case .off:
            log.info("control socket off (control-socket = \"off\")")
            return nil
        case .path(let named):
            (path, group, why) = (named, configuration.controlGroup, "control-socket")
        case .auto:
            let chosen = ControlSocketPlace.chosen(environment: source?.environment ?? ProcessEnvironment.current(), uid: geteuid())
            path = chosen.path
            why = chosen.place.reason
            // The user's own folders (0700) keep everyone else out whatever the socket's group: a group to
            // give it is the service's, whose folder the group's members may enter.
            group = chosen.place == .service ? configuration.controlGroup : nil
            if chosen.place == .temporary {
                do throws(ControlSocketError) {
                    try ControlSocketFolder.prepare(String(path[..<path.lastIndex(of: "/")!]), uid: geteuid())
                } catch {
                    log.error("control socket off: \(error)")
                    return nil
                }
            }
        }
        do {
            let server = try ControlServer(path: path, group: group, clock: application.clock) { [weak self] request in
                guard let self else { return .now(JSONLine([("ok", .bool(false)), ("error", .string("the kiosk is stopping"))])) }
                return self.answer(request)
            }
            let who =
                if group != nil {
                    "group \(ControlServer.groupName(server.groupID) ?? String(server.groupID))"
                } else {
                    geteuid() == 0 ? "only root reaches it" : "only uid \(geteuid()) and root reach it"
                }
            // Said where a person running it by hand looks first; under `auto` the clients look there too.
            let found = configuration.controlSocket == .auto ? "; kiosk status, power, brightness, screenshot and reload find it" : ""
            log.info("control socket \(path) (\(why); \(who))\(found)")
            return server
        } catch  where error.isExpected {
            log.notice("control socket off: \(error)")
        } catch {
            log.error("control socket off: \(error)")
        }
        return nil
    }

    // MARK: status

    private func status() -> JSONLine {
        var line = JSONLine([("ok", .bool(true))])
        line.append("backend", display.map { .string(type(of: $0).name) } ?? .null)
        line.append("config", configuration.path.map { .string($0) } ?? .null)
        line.append("uptime", .raw((StartupTimeline.now() - timeline.exec).formatted(places: 1)))
        let screens = (display?.screens ?? []).map { screen in
            var entry = JSONLine([("name", .string(screen.name)), ("connected", .bool(screen.isConnected))])
            entry.append("main", .bool(screen.isConnected && screen === Screen.main))
            entry.append("mode", screen.currentMode.map { .string($0.description) } ?? .null)
            entry.append("width", .integer(Int(screen.bounds.width)))
            entry.append("height", .integer(Int(screen.bounds.height)))
            entry.append("rotation", .string(screen.rotation.name))
            entry.append("power", screen.isConnected ? .string(screen.powerState.rawValue) : .null)
            entry.append("brightness", .number(screen.brightness))
            entry.append("backlight", .bool(screen.hasBacklight))
            entry.append("frames", .integer(compositor?.framesComposed(on: screen) ?? 0))
            return entry.text
        }
        line.append("screens", .raw("[" + screens.joined(separator: ",") + "]"))
        if let router {
            let inputs = router.presentDevices.map { device in
                let decision = router.decision(for: device)
                var entry = JSONLine([("name", .string(device.name)), ("sysname", .string(device.sysname))])
                let capabilities = device.capabilities.names.map(JSONLine.quote)
                entry.append("capabilities", .raw("[" + capabilities.joined(separator: ",") + "]"))
                entry.append("screen", decision?.screen.map { .string($0) } ?? .null)
                entry.append("reason", decision.map { .string($0.reason) } ?? .null)
                return entry.text
            }
            line.append("inputs", .raw("[" + inputs.joined(separator: ",") + "]"))
        } else {
            // No input backend (headless, or input failed to start): not the same as no devices.
            line.append("inputs", .null)
        }
        return line
    }

    // MARK: power and brightness

    /// The screens a request is about: the one it names (which must be connected), else every connected one.
    private func targets(_ request: ControlRequest) -> Result<[Screen], ControlServer.Refusal> {
        let screens = display?.screens ?? []
        switch request["screen"] {
        case nil, .null?:
            let connected = screens.filter(\.isConnected)
            return connected.isEmpty ? .failure(.init("no screen is connected")) : .success(connected)
        case .string(let name)?:
            guard let screen = screens.first(where: { $0.name == name }) else {
                let names = screens.map(\.name).joined(separator: ", ")
                return .failure(.init("no screen named \"\(name)\"; the screens are \(names.isEmpty ? "none" : names)"))
            }
            guard screen.isConnected else { return .failure(.init("\(name) is not connected")) }
            return .success([screen])
        case let other?:
            return .failure(.init("\"screen\" is \(other.kind); it must be a screen's name"))
        }
    }

    private func power(_ request: ControlRequest) -> Result<JSONLine, ControlServer.Refusal> {
        guard let text = request["state"]?.string, let state = Screen.PowerState(rawValue: text) else {
            return .failure(.init("power: \"state\" must be \"on\" or \"off\""))
        }
        guard let power else { return .failure(.init("power: the kiosk is not started")) }
        // `on` for a screen that went away with its TV in standby (many TVs drop hotplug detect then) wakes
        // the TV over HDMI-CEC; the screen connects again once the TV is on.
        var waking: [Screen] = []
        let named: String?? =
            switch request["screen"] {
            case nil, .null?: .some(nil)
            case .string(let name)?: name
            default: nil  // refused by `targets`
            }
        if state == .on, let named {
            waking = (display?.screens ?? []).filter {
                !$0.isConnected && (named == nil || $0.name == named) && power.wake(disconnected: $0.name, reason: "control")
            }
        }
        let screens: [Screen]
        switch targets(request) {
        case .failure where !waking.isEmpty: screens = []
        case .failure(let refusal): return .failure(refusal)
        case .success(let found): screens = found
        }
        var failures: [String] = []
        for screen in screens where screen.powerState != state {
            if let error = power.turn(screen, state, reason: "control") { failures.append(error.description) }
        }
        guard failures.isEmpty else { return .failure(.init(failures.joined(separator: "; "))) }
        return .success(
            screenList(screens + waking) { [("power", .string($0.isConnected ? $0.powerState.rawValue : Self.wakingDisconnected))] })
    }

    /// The `power` a screen has in the answer to `kiosk power on` when it is disconnected and its TV was woken.
    public static let wakingDisconnected = "waking"

    private func brightness(_ request: ControlRequest) -> Result<JSONLine, ControlServer.Refusal> {
        guard let value = request["value"]?.number, (0...1).contains(value) else {
            return .failure(.init("brightness: \"value\" must be a number from 0 to 1"))
        }
        let screens: [Screen]
        switch targets(request) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let found): screens = found
        }
        let without = screens.filter { !$0.hasBacklight }.map(\.name)
        // A screen named must have a backlight; without a name, those that have one are set.
        if request["screen"]?.string != nil, let name = without.first {
            return .failure(.init("\(name) has no backlight the kiosk can set (its brightness stays 1)"))
        }
        let lit = screens.filter(\.hasBacklight)
        guard !lit.isEmpty else {
            return .failure(
                .init("no screen has a backlight the kiosk can set: \(without.joined(separator: ", ")) (their brightness stays 1)"))
        }
        for screen in lit {
            do { try screen.setBrightness(value) } catch { return .failure(.init(error.description)) }
        }
        var line = screenList(lit) { [("brightness", .number($0.brightness))] }
        if !without.isEmpty { line.append("without-backlight", .raw("[" + without.map(JSONLine.quote).joined(separator: ",") + "]")) }
        return .success(line)
    }

    /// `{"ok":true,"screens":[{"name":...,<fields>}]}`.
    private func screenList(_ screens: [Screen], fields: (Screen) -> [(String, JSONLine.Value)]) -> JSONLine {
        let entries = screens.map { JSONLine([("name", .string($0.name))] + fields($0)).text }
        return JSONLine([("ok", .bool(true)), ("screens", .raw("[" + entries.joined(separator: ",") + "]"))])
    }

    // MARK: screenshot

    /// What the screen shows as scanned out, rotation included, from the compositor's RAM copy
    /// (`Compositor.scanoutImage`, on the main actor: the frame as it is now), as a PNG in Base64. The PNG is
    /// made on another thread: zlib's compression of a 1280x800 frame took 60-100 ms here and over a second
    /// in the emulated test bed, time the main queue must not lose (frames, touches, other clients).
    private func screenshot(_ request: ControlRequest) -> Result<ControlReply, ControlServer.Refusal> {
        let screen: Screen
        if request["screen"] == nil || request["screen"] == .null {
            screen = Screen.main
            guard screen.isConnected else { return .failure(.init("no screen is connected")) }
        } else {
            switch targets(request) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let found): screen = found[0]
            }
        }
        guard screen.powerState == .on else {
            return .failure(.init("\(screen.name) is off: it shows nothing (kiosk power on --screen \(screen.name))"))
        }
        guard let image = compositor?.scanoutImage(of: screen) else {
            return .failure(.init("\(screen.name) has no frame yet"))
        }
        let handoff = ImageHandoff(image: image)
        let fields: [(String, JSONLine.Value)] = [
            ("ok", .bool(true)), ("screen", .string(screen.name)), ("width", .integer(image.width)), ("height", .integer(image.height)),
            ("rotation", .string(screen.rotation.name)),
        ]
        let name = screen.name
        return .success(
            .later { [weak self] reply in
                let work: @Sendable () -> Void = {
                    let line: JSONLine
                    let bytes: Int?
                    do {
                        let png = try handoff.image.pngData()
                        // Base64's alphabet needs no escaping in a JSON string.
                        line = JSONLine(fields + [("png", .raw("\"" + Base64.encode(png) + "\""))])
                        bytes = png.count
                    } catch {
                        line = JSONLine([("ok", .bool(false)), ("error", .string("\(name): making the PNG failed: \(error)"))])
                        bytes = nil
                    }
                    DispatchQueue.main.async {
                        MainActor.assumeIsolated {
                            self?.trace?.recordControl(command: "screenshot", ok: bytes != nil)
                            if let bytes {
                                Logger(label: "kiosk.control").info(
                                    "screenshot of \(name) (\(handoff.image.width)x\(handoff.image.height), \(bytes) bytes of PNG)")
                            }
                            reply(line)
                        }
                    }
                }
                // No thread to be had: made here, holding the main queue for a moment.
                if !BackgroundThread.start(work) { work() }
            })
    }

    // MARK: reload

    private func reloadAnswer() -> Result<JSONLine, ControlServer.Refusal> {
        func list(_ items: [String]) -> JSONLine.Value { .raw("[" + items.map(JSONLine.quote).joined(separator: ",") + "]") }
        switch reload(trigger: "kiosk reload") {
        case .nothingToRead:
            return .failure(.init("reload: this kiosk has no configuration to read again"))
        case let .rejected(path, problems):
            return .failure(
                .init(
                    "\(path) has \(problems.count) problem(s); the running configuration is kept",
                    extra: [("config", .string(path)), ("problems", list(problems))]))
        case let .applied(read, applied, restart):
            var line = JSONLine([("ok", .bool(true))])
            switch read {
            case .file(let path): line.append("config", .string(path))
            case .noFile(let path, let onDefaults):
                // No file: `config` is null (as in `status`), `missing` the path looked at.
                line.append("config", .null)
                line.append("missing", .string(path))
                line.append("defaults", .bool(onDefaults))
            }
            line.append("applied", list(applied))
            line.append("restart", list(restart))
            return .success(line)
        }
    }
}

/// The image made for one screenshot, handed to the thread that encodes it: nothing else holds it, so the
/// bitmap (not `Sendable`: a bitmap belongs to the thread that draws into it) is that thread's alone.
private struct ImageHandoff: @unchecked Sendable {
    let image: Bitmap
}
