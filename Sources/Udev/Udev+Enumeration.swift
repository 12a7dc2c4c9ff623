import CUdev
import Glibc

extension Udev {
    /// Every device of `subsystem` whose kernel name matches `sysname` (an `fnmatch` glob such as
    /// `card[0-9]*`) and which has **all** of `properties` (values are globs too), sorted by sysname in
    /// natural order (`card2` before `card10`, see `naturalOrder(_:_:)`).
    ///
    /// Calls `udev_enumerate_new`, `udev_enumerate_add_match_subsystem`,
    /// `udev_enumerate_add_match_sysname`, `udev_enumerate_add_match_property`,
    /// `udev_enumerate_scan_devices`, then `udev_device_new_from_syspath` for each entry of
    /// `udev_enumerate_get_list_entry`.
    ///
    /// - Several properties are combined with AND here, although libudev combines its property matches
    ///   with OR (observed with libudev 252: `DEVMODE=0666` + `MINOR=3` on `mem` returns five devices).
    ///   They are still given to libudev, which narrows the scan to devices with at least one of them,
    ///   and the rest are checked in Swift with the same `fnmatch` rules.
    /// - No "is initialized" match is added: without a running udevd (containers, early boot) no device
    ///   is initialized, and the kernel's own properties are still worth having.
    /// - A device that disappears between the scan and its lookup (unplugged meanwhile) is skipped.
    public func devices(
        subsystem: String, sysname: String? = nil,
        properties: [String: String] = [:]
    ) throws(UdevError) -> [UdevDevice] {
        precondition(!subsystem.isEmpty, "Udev.devices(subsystem:): empty subsystem name")
        let enumerate = try udevCreate("udev_enumerate_new") { udev_enumerate_new(pointer) }
        defer { udev_enumerate_unref(enumerate) }

        try udevCheck(
            udev_enumerate_add_match_subsystem(enumerate, subsystem),
            "udev_enumerate_add_match_subsystem", detail: subsystem)
        if let sysname {
            try udevCheck(
                udev_enumerate_add_match_sysname(enumerate, sysname),
                "udev_enumerate_add_match_sysname", detail: sysname)
        }
        for (key, value) in properties {
            try udevCheck(
                udev_enumerate_add_match_property(enumerate, key, value),
                "udev_enumerate_add_match_property", detail: "\(key)=\(value)")
        }
        try udevCheck(udev_enumerate_scan_devices(enumerate), "udev_enumerate_scan_devices", detail: subsystem)

        var found: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let name = udev_list_entry_get_name(current) else { continue }
            let syspath = String(cString: name)
            let device: UdevDevice
            do {
                device = try self.device(syspath: syspath)
            } catch  where error.errno == ENODEV || error.errno == ENOENT {
                continue  // unplugged between the scan and now
            }
            if properties.allSatisfy({ key, pattern in
                device.properties[key].map { fnmatch(pattern, $0, 0) == 0 } ?? false
            }) {
                found.append(device)
            }
        }
        return found.sorted { lhs, rhs in
            if lhs.sysname != rhs.sysname { return Udev.naturalOrder(lhs.sysname, rhs.sysname) }
            return Udev.naturalOrder(lhs.syspath, rhs.syspath)
        }
    }
}
