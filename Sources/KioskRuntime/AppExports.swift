// The KioskConfig types an app's own code names when it calls `KioskRuntime.main` (its settings, and the
// configuration its maker reads them from), re-exported: an app in a package of its own depends on the
// products KioskKit and KioskRuntime, and KioskConfig is no product (Examples/CheckInApp).

@_exported import struct KioskConfig.AppSetting
@_exported import enum KioskConfig.ConfigValue
@_exported import struct KioskConfig.KioskConfiguration
