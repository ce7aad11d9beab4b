import Glibc
@main struct M { static func main() async { await Task.yield(); while true { pause() } } }
