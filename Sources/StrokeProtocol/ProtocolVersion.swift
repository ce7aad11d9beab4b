/// The wire protocol's major version. It changes only for incompatible changes; additions are
/// announced as features. See docs/protocol.md.
public enum ProtocolVersion {
    public static let current = 1
}
