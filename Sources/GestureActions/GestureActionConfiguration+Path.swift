extension GestureActionConfiguration {
    /// Where the configuration is read from without `--config`: `$XDG_CONFIG_HOME/strokes/gestures.yaml`
    /// when that variable holds an absolute path (the XDG base directory rules ignore a relative
    /// one), else `$HOME/.config/strokes/gestures.yaml`. Nil without either.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/strokes/gestures.yaml"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/strokes/gestures.yaml"
    }
}
