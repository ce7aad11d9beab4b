// Placeholder: the live finger-paint page replaces this file.
"use strict";
