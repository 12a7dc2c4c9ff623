/// How long an animation's frame is shown, from the duration its file gives.
enum FrameDuration {
    /// `milliseconds`, except that 10 ms or less is shown for 100 ms: Firefox and Chrome do so for GIF and
    /// WebP, because old encoders wrote 0 for "as fast as possible" and such files were made to look right
    /// in those browsers, at about ten frames a second.
    static func seconds(milliseconds: Int) -> Double {
        milliseconds <= 10 ? 0.1 : Double(milliseconds) / 1000
    }
}
