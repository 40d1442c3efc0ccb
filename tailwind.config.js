/** Tailwind 3 configuration: classes are collected from templ components,
 * Go handlers and the portal's scripts. */
module.exports = {
  content: ["./views/**/*.templ", "./views/**/*.go", "./handlers/**/*.go", "./static/js/portal.js"],
  theme: {
    extend: {
      fontFamily: {
        sans: ["Inter", "ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "sans-serif"],
        mono: ["ui-monospace", "SFMono-Regular", "Menlo", "monospace"],
      },
    },
  },
  plugins: [require("@tailwindcss/forms")],
};
