extension Udev {
    /// Whether `lhs` sorts before `rhs` when runs of digits compare as numbers: `card2` < `card10`,
    /// `event9` < `event10`, `card0-HDMI-A-2` < `card0-HDMI-A-10`. libudev returns devices in sysfs
    /// directory order, and plain string order puts `card10` before `card2`.
    ///
    /// Digit runs compare by value (leading zeros ignored, so no overflow however long the run); strings
    /// that differ only in leading zeros fall back to byte order, so this is a strict total order,
    /// safe for `sorted(by:)`.
    public static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let startA = i, startB = j
                while i < a.count && isDigit(a[i]) { i += 1 }
                while j < b.count && isDigit(b[j]) { j += 1 }
                let digitsA = stripZeros(a[startA..<i]), digitsB = stripZeros(b[startB..<j])
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count }
                if !digitsA.elementsEqual(digitsB) { return digitsA.lexicographicallyPrecedes(digitsB) }
            } else {
                if a[i] != b[j] { return a[i] < b[j] }
                i += 1
                j += 1
            }
        }
        if (a.count - i) != (b.count - j) { return (a.count - i) < (b.count - j) }
        return a.lexicographicallyPrecedes(b)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func stripZeros(_ digits: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        digits.drop { $0 == UInt8(ascii: "0") }
    }
}
