import CLazyLibInput

extension InputDevice {
    /// Whether the device takes a calibration matrix: absolute devices (touchscreens, tablets) do
    /// (`libinput_device_config_calibration_has_matrix`).
    public var hasCalibrationMatrix: Bool {
        libinput_device_config_calibration_has_matrix(handle.pointer) != 0
    }

    /// The matrix libinput applies now, `[a, b, c, d, e, f]` as in `setCalibrationMatrix(_:)`
    /// (`libinput_device_config_calibration_get_matrix`). The identity `[1, 0, 0, 0, 1, 0]` when none is set
    /// or the device takes none.
    public var calibrationMatrix: [Float] {
        var matrix = [Float](repeating: 0, count: 6)
        _ = libinput_device_config_calibration_get_matrix(handle.pointer, &matrix)
        return matrix
    }

    /// The matrix the device starts with: udev's `LIBINPUT_CALIBRATION_MATRIX` property when set (libinput
    /// reads it when the device is added), else the identity
    /// (`libinput_device_config_calibration_get_default_matrix`).
    public var defaultCalibrationMatrix: [Float] {
        var matrix = [Float](repeating: 0, count: 6)
        _ = libinput_device_config_calibration_get_default_matrix(handle.pointer, &matrix)
        return matrix
    }

    /// Sets the matrix applied to the device's absolute coordinates, normalized to 0...1, before they
    /// reach touch and absolute pointer events, in both their normalized and millimetre values
    /// (`libinput_device_config_calibration_set_matrix`):
    ///
    ///     [ a b c ]   [ x ]
    ///     [ d e f ] * [ y ]
    ///     [ 0 0 1 ]   [ 1 ]
    ///
    /// 90° clockwise is `[0, -1, 1, 1, 0, 0]`, 180° `[-1, 0, 1, 0, -1, 1]`, 270° `[0, 1, 0, -1, 0, 1]`. The
    /// setting lasts while the device exists; a device plugged again, or reopened by `resume()`, starts
    /// from `defaultCalibrationMatrix`.
    ///
    /// Throws `EOPNOTSUPP` for a device without calibration (a keyboard, a mouse). libinput 1.22 takes any
    /// matrix on a device that has calibration; should a later one answer "invalid", that throws `EINVAL`.
    /// A matrix without exactly 6 values is a programmer error and traps.
    public func setCalibrationMatrix(_ matrix: [Float]) throws(LibInputError) {
        precondition(matrix.count == 6, "a calibration matrix has 6 values (a b c d e f), got \(matrix.count)")
        let status = libinput_device_config_calibration_set_matrix(handle.pointer, matrix)
        try configCheck(status, "libinput_device_config_calibration_set_matrix", device: description)
    }
}
