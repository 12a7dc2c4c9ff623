import CProcessControl
import Glibc

/// Transparent huge pages, which the kiosk turns off for itself and the seat helper it forks.
///
/// Debian's kernel (transparent huge pages `always`) backs anonymous memory with 2 MiB pages wherever a
/// whole aligned 2 MiB fits in a mapping. A thread's 8 MiB stack that happens to be aligned then takes 2 MiB at
/// its first call instead of the few pages it uses, and a view cache's bitmap, whose mapping leaves the
/// pages nothing is drawn on unbacked, would be backed whole. On the test bed a start had a 2 MiB huge
/// page in a thread stack in one run of two (2 MiB more RSS). Fewer TLB misses in composition were not
/// measured against that.
enum HugePages {
    /// Turns them off for this process, before any thread starts (`prctl(PR_SET_THP_DISABLE)`); the
    /// errno when that failed.
    static func disable() -> Int32? {
        kiosk_disable_transparent_huge_pages() == 0 ? nil : errno
    }
}
