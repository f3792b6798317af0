import { useNavigation } from "react-router";

/**
 * A thin bar at the top of the page while a navigation or form submission is in flight. It grows without motion
 * for people who ask their system for reduced motion.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div
      aria-hidden="true"
      data-state={busy ? "busy" : "idle"}
      className={`pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 origin-left bg-brand transition-transform duration-500 ease-out motion-reduce:transition-none ${
        busy ? "scale-x-75" : "scale-x-0"
      }`}
    />
  );
}
