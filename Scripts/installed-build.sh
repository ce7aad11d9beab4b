# Sourced: the options of the installed build (README, "Install as a service"), for the scripts
# that measure or test it. `swift build -c release --product strokes "${installed_build[@]}"`.
#   --static-swift-stdlib: no Swift runtime needed where it runs;
#   -function-sections: each function a section, for the linker script that places the code the
#     daemon runs together (docs/performance.md, "Fourth round");
#   -enforce-exclusivity=unchecked: no run-time exclusivity checks in NIO either (Package.swift
#     turns them off for the daemon's own modules; docs/performance.md, "Twelfth round").
installed_build=(--static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections
                 -Xswiftc -enforce-exclusivity=unchecked)
